/**
 * 'Transparency Data Overview' (/overview), docs/screens.md (Old dashboard and overview): four
 * summary cards with the sample trends, 'Most Common Services' and 'Top Provider Specialties'
 * (first 5 of each; a specialty's bar width is its count / 567). Fixed sample figures.
 */
import type { ReactElement } from 'react';
import { formatCount, formatPercent, formatUsd } from '../../../contract/rules/format';
import { ActivityIcon, DollarIcon, FileIcon, UsersIcon } from '../../components/Icons';
import { SummaryCard } from '../../components/SummaryCard';
import { Panel, PanelRow } from '../../components/dashboard/Panel';
import { PageHeader } from '../../components/PageHeader';
import { OVERVIEW_LIST_LIMIT, OVERVIEW_SUMMARY as S, OVERVIEW_TRENDS as T, SPECIALTY_BAR_DIVISOR } from '../data/overview';
import '../../styles/screens.css';
import './Overview.css';

const trend = (value: number) => ({ value, isPositive: value > 0 });

export function Overview(): ReactElement {
  return (
    <section className="page" aria-labelledby="overview-title">
      <title>Transparency Data Overview · Compete</title>
      <PageHeader id="overview-title" title="Transparency Data Overview" sample
        description="Analysis of publicly available negotiated rates and pricing data from health insurers" />
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
      <PanelRow>
        <Panel title="Most Common Services">
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
        </Panel>
        <Panel title="Top Provider Specialties">
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
        </Panel>
      </PanelRow>
    </section>
  );
}
