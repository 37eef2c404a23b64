/**
 * The routes the screens benchmark opens from their URL (a bookmark, a reload), each with what its
 * first content and its complete screen are (bench/screens-probe.ts), and the dataset facts their
 * URLs need (a category, a service with a provider and an insurer), read through the app's own
 * /api in a throw-away browser so that no measured profile has seen anything before.
 * Selectors are those of the components (src/routes, src/components) and the e2e tests (test/e2e).
 */
import type { Page } from 'playwright-core';
import type { WatchConfig } from './screens-probe';

/** What the routes' URLs name, from the dataset. */
export interface DatasetFacts {
  /** The first category of `GET /api/service-categories`; null when the dataset has none. */
  category: string | null;
  /** A service with rates (the dashboard's top overpaid unit, else the first service found). */
  service: string;
  /** A provider with rates for `service`, and one of its insurers. */
  provider: string;
  insurer: string;
}

/** One route opened from its URL. */
export interface RouteSpec {
  /** The label printed. */
  label: string;
  /** The path with its query. */
  path: string;
  watch: WatchConfig;
  /** A variant of a route before it (same screen, other URL state): left out in tiny mode. */
  variant?: boolean;
}

/** The comparison's table (an empty page has its one 'No services match' row). */
export const COMPARISON_ROWS = '.comparison-table tbody tr';
/** The live dashboard's KPI figure (the first content cold-start.bench.ts times). */
export const KPI_VALUE = '.summary-card__value';

const dashboard: WatchConfig = { first: [KPI_VALUE], content: [KPI_VALUE, 'path.us-map__state'] };
const comparison: WatchConfig = { first: [`${KPI_VALUE}, ${COMPARISON_ROWS}`], content: [COMPARISON_ROWS] };

/** The routes, in the order measured. */
export function routesOf(f: DatasetFacts): RouteSpec[] {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return [
    { label: '/live-dashboard (Live Overview)', path: '/live-dashboard', watch: dashboard },
    { label: '/live-comparison', path: '/live-comparison', watch: comparison },
    // `state` is no key of the comparison's URL state today (src/live/url-state/live-comparison-state.ts
    // keeps unknown keys): measured as a bookmark would carry it.
    { label: '/live-comparison?state=CA', path: '/live-comparison?state=CA', watch: comparison, variant: true },
    ...(f.category === null ? [] : [{ label: '/live-comparison, a category', path: `/live-comparison?${q({ category: f.category })}`, watch: comparison, variant: true }]),
    { label: '/live-comparison?shared_providers=1', path: '/live-comparison?shared_providers=1', watch: comparison, variant: true },
    {
      label: '/live-search, a service chosen', path: `/live-search?${q({ service: f.service })}`,
      watch: { first: ['.live-search__chosen'], content: ['.live-search__chosen', '.live-search__provider .live-sub'] },
    },
    { label: '/data-coverage', path: '/data-coverage', watch: { first: ['[data-testid="validation-headline"]'], content: ['[data-testid="validation-headline"]', 'table'] } },
    { label: '/dataset (Snapshot)', path: '/dataset', watch: { first: ['[data-testid="dataset-origin"]'], content: ['[data-testid="dataset-origin"]'] } },
  ];
}

/** `GET path` through the page's interceptor (the data worker), as JSON. @throws on a non-2xx answer. */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  const r = await page.evaluate(`fetch(${JSON.stringify(path)}).then(async (res) => ({ status: res.status, text: await res.text() }))`) as { status: number; text: string };
  if (r.status < 200 || r.status > 299) throw new Error(`${path}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
  return JSON.parse(r.text) as T;
}

/**
 * Reads the DatasetFacts through the app on `page` (signed in, on any route of the app's origin).
 * @throws when the dataset has no service with a provider and an insurer.
 */
export async function datasetFacts(page: Page): Promise<DatasetFacts> {
  const categories = await apiGet<string[]>(page, '/api/service-categories');
  const figures = await apiGet<{ top: Array<{ service_code: string }> }>(page, '/api/dashboard-figures');
  const search = await apiGet<{ items: Array<{ id: string }> }>(page, '/api/services-search?limit=5');
  for (const service of [...figures.top.map((t) => t.service_code), ...search.items.map((s) => s.id)]) {
    const providers = await apiGet<{ items: Array<{ id: string }> }>(page, `/api/providers-for-service?service_id=${encodeURIComponent(service)}&limit=1`);
    const insurers = await apiGet<Array<{ id: string }>>(page, `/api/insurers-for-service?service_id=${encodeURIComponent(service)}`);
    const provider = providers.items[0]?.id;
    const insurer = insurers[0]?.id;
    if (provider && insurer) return { category: categories.find((c) => c) ?? null, service, provider, insurer };
  }
  throw new Error('no service of the dataset has a provider and an insurer (GET /api/providers-for-service, /api/insurers-for-service)');
}
