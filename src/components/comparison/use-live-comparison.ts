/**
 * Loads what the live comparison shows: `GET /api/insurers` (once per mount, kept after success)
 * and `GET /api/service-pricing` for the current query. Results stay in component state, out of
 * the store (architecture.md, Style). A change of query or `reloadKey` reloads; the previous
 * answer stays available while the next one loads.
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveInsurer, ServicePricingResult } from '../../../contract/api';
import { apiGet } from '../../api/client';
import { servicePricingParams, type ComparisonQuery } from './comparison-query';

export interface ComparisonData {
  insurers: LiveInsurer[];
  result: ServicePricingResult;
}

export type ComparisonLoad =
  | { status: 'loading'; previous: ComparisonData | null }
  | { status: 'ready'; data: ComparisonData }
  | { status: 'error'; detail: string };

interface Settled {
  key: string;
  data: ComparisonData | null;
  detail: string;
}

/** See the module comment. `reloadKey` is any number; changing it refetches the same query. */
export function useLiveComparison(query: ComparisonQuery, reloadKey: number): ComparisonLoad {
  const { page, limit, category } = query;
  const key = JSON.stringify([page, limit, category, reloadKey]);
  const [settled, setSettled] = useState<Settled | null>(null);
  const insurers = useRef<LiveInsurer[] | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const insurersLoad = insurers.current
      ? Promise.resolve(insurers.current)
      : apiGet('GET /api/insurers', {}, { signal }).then((list) => (insurers.current = list));
    const pricingLoad = apiGet('GET /api/service-pricing', servicePricingParams({ page, limit, category }), { signal });
    Promise.all([insurersLoad, pricingLoad]).then(
      ([insurerList, result]) => setSettled({ key, data: { insurers: insurerList, result }, detail: '' }),
      (error: unknown) => {
        if (signal.aborted) return;
        const detail = error instanceof Error ? error.message : String(error);
        setSettled((prev) => ({ key, data: prev?.data ?? null, detail }));
      },
    );
    return () => controller.abort();
  }, [key, page, limit, category]);

  if (settled?.key === key) {
    return settled.detail || !settled.data
      ? { status: 'error', detail: settled.detail }
      : { status: 'ready', data: settled.data };
  }
  return { status: 'loading', previous: settled?.data ?? null };
}
