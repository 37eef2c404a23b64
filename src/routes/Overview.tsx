/**
 * 'Transparency Data Overview' (/overview; product-spec §2 An earlier overview screen, §9): four
 * summary cards with the sample trends, 'Most Common Services' and 'Top Provider Specialties'
 * (first 5 of each; a specialty's bar width is its count / 567). Fixed sample figures.
 */
import type { ReactElement } from 'react';
import { formatCount, formatPercent, formatUsd } from '../../contract/format';
import { ActivityIcon, DollarIcon, FileIcon, UsersIcon } from '../components/Icons';
import { SummaryCard } from '../components/SummaryCard';
import { OVERVIEW_LIST_LIMIT, OVERVIEW_SUMMARY as S, OVERVIEW_TRENDS as T, SPECIALTY_BAR_DIVISOR } from '../sample-data/overview';
import '../styles/screens.css';
import './Overview.css';

const trend = (value: number) => ({ value, isPositive: value > 0 });

export function Overview(): ReactElement {
  return (
    <section className="page" aria-labelledby="overview-title">
      <title>Transparency Data Overview · Compete</title>
      <header className="page-header">
        <div>
          <h1 id="overview-title">Transparency Data Overview</h1>
          <p className="muted">Analysis of publicly available negotiated rates and pricing data from health insurers</p>
        </div>
        <span className="sample-badge">Sample data</span>
      </header>
      <div className="card-grid">
        <SummaryCard title="Healthcare Services" value={formatCount(S.totalServices)} subtitle="With published pricing data"
          trend={trend(T.services)} icon={<FileIcon />} />
        <SummaryCard title="Healthcare Providers" value={formatCount(S.totalProviders)} subtitle="Across all networks"
          trend={trend(T.providers)} icon={<UsersIcon />} />
        <SummaryCard title="Average Negotiated Rate" value={formatUsd(S.averageNegotiatedRate)} subtitle="Across all services"
          trend={trend(T.averageRate)} icon={<DollarIcon />} />
        <SummaryCard title="Price Range Spread" value={formatPercent(S.priceRangeSpread)} subtitle="Variation across regions"
          icon={<ActivityIcon />} />
      </div>
      <div className="two-col">
        <div className="section panel">
          <div className="section__head"><h2>Most Common Services</h2></div>
          <ul className="overview-list">
            {S.mostCommonServices.slice(0, OVERVIEW_LIST_LIMIT).map((s) => (
              <li key={s.serviceCode}>
                <div>
                  <p className="overview-list__name">{s.serviceName}</p>
                  <p className="overview-list__meta">{`Code: ${s.serviceCode}`}</p>
                </div>
                <div className="overview-list__figures">
                  <p className="overview-list__value">{formatUsd(s.averageRate)}</p>
                  <p className="overview-list__meta">{`${formatCount(s.frequency)} providers`}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div className="section panel">
          <div className="section__head"><h2>Top Provider Specialties</h2></div>
          <ul className="specialty-list">
            {S.providersBySpecialty.slice(0, OVERVIEW_LIST_LIMIT).map((s) => (
              <li key={s.specialty}>
                <span className="specialty-list__name">{s.specialty}</span>
                <span className="specialty-list__track" aria-hidden="true">
                  <span className="specialty-list__bar"
                    style={{ width: `${Math.min(100, (s.providerCount / SPECIALTY_BAR_DIVISOR) * 100)}%` }} />
                </span>
                <span className="specialty-list__count">{formatCount(s.providerCount)}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
