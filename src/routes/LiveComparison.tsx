/**
 * /live-comparison (product-spec §2 Comparison screens, §4, §8, §9): the reference insurer's
 * prices against its competitors, from `GET /api/insurers` and `GET /api/service-pricing`, with
 * paging and a category filter kept in the URL. The reference insurer is the one with
 * `isReference`; every other insurer is a competitor (the API's default when none are named).
 */
import { useState, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { LiveInsurer } from '../../contract/api';
import { formatCount } from '../../contract/format';
import { CategorySelect } from '../components/comparison/CategorySelect';
import { ComparisonSummary } from '../components/comparison/ComparisonSummary';
import { ComparisonTable } from '../components/comparison/ComparisonTable';
import { PagingControls } from '../components/comparison/PagingControls';
import {
  hasNextPage, withCategory, withPage, withPageSize, writeComparisonQuery,
} from '../components/comparison/comparison-query';
import { useComparisonQuery } from '../components/comparison/use-comparison-query';
import { useLiveComparison, type ComparisonData } from '../components/comparison/use-live-comparison';
import './LiveComparison.css';

function splitInsurers(insurers: LiveInsurer[]): { reference: LiveInsurer | null; competitors: LiveInsurer[] } {
  const reference = insurers.find((i) => i.isReference) ?? null;
  return { reference, competitors: insurers.filter((i) => i !== reference) };
}

export function LiveComparison(): ReactElement {
  const [query, setQuery] = useComparisonQuery();
  const [search] = useSearchParams();
  const [reloadKey, setReloadKey] = useState(0);
  const load = useLiveComparison(query, reloadKey);

  const data: ComparisonData | null =
    load.status === 'ready' ? load.data : load.status === 'loading' ? load.previous : null;
  const loading = load.status === 'loading';
  const { reference, competitors } = splitInsurers(data?.insurers ?? []);
  const records = data?.result.records ?? [];
  const retrySearch = writeComparisonQuery(search, withPage(query, 0)).toString();

  return (
    <section className="live-comparison" aria-labelledby="live-comparison-title">
      <title>Live Price Comparison · Compete</title>
      <header className="page-header">
        <h1 id="live-comparison-title">Live Price Comparison</h1>
        <p className="muted">
          {data && reference
            ? `${reference.name} prices against ${formatCount(data.result.summary.comparing_against)} competitor insurers, snapshot ${data.result.snapshot}.`
            : 'Negotiated prices of the reference insurer against its competitors.'}
        </p>
      </header>

      <div className="lc-filters panel" role="group" aria-label="Filters">
        <CategorySelect value={query.category} onChange={(c) => setQuery(withCategory(query, c))} />
      </div>

      {load.status === 'error' && (
        <div className="lc-error panel" role="alert">
          <p>
            <strong>Error loading data.</strong>{' '}
            <Link to={{ search: retrySearch }} onClick={() => setReloadKey((k) => k + 1)}>Retry</Link>
          </p>
          <p className="muted">Failed to load service pricing or insurer data.</p>
          {load.detail && <p className="lc-error__detail">{load.detail}</p>}
        </div>
      )}

      {loading && !data && <p className="lc-status" role="status">Loading price comparison data...</p>}

      {data && load.status !== 'error' && (
        <>
          <ComparisonSummary summary={data.result.summary} />
          <div className={`lc-results panel${loading ? ' is-loading' : ''}`} aria-busy={loading}>
            <div className="lc-results__bar">
              <h2>Services</h2>
              <p className="lc-results__count">
                {loading ? (
                  <span role="status">Loading price comparison data...</span>
                ) : (
                  `${formatCount(records.length)} services shown`
                )}
              </p>
            </div>
            <ComparisonTable records={records} reference={reference} competitors={competitors}
              caption="Service price comparison" />
            <PagingControls page={query.page} limit={query.limit}
              hasNext={!loading && hasNextPage(records.length, query.limit)}
              onPage={(p) => setQuery(withPage(query, p))}
              onPageSize={(size) => setQuery(withPageSize(query, size))} />
          </div>
        </>
      )}
    </section>
  );
}
