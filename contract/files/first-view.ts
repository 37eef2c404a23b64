/**
 * The first view: `first-view.json`, a small file of the dataset directory holding the worker's own
 * answers to the first requests of every live screen opened from its plain URL (firstViewRequests:
 * latest snapshot, every competitor, every provider), computed by the converter with the worker's
 * code (Node, DuckDB-WASM) right after the tables are written (docs/architecture.md, Cold start).
 * The page answers those requests from it while DuckDB-WASM boots behind them, so a screen opened
 * from a bookmark never waits for the database. Everything else, and every request once a local
 * snapshot is open, goes to the worker.
 *
 * Shape: `{ format, created_at, answers: [{ path, query, status, body, requires_no_acknowledgements? }] }`;
 * `created_at` is the manifest's, so a page can tell the file belongs to the dataset the worker opened.
 */
import type { LiveInsurer } from '../api';

/** The file's name inside the dataset directory. */
export const FIRST_VIEW_FILE = 'first-view.json';

/** Its `format`. */
export const FIRST_VIEW_FORMAT = 'compete-first-view' as const;

/** One recorded answer: a GET request (path and query as the page sends them) and the worker's response. */
export interface FirstViewAnswer {
  path: string;
  query: Record<string, string>;
  /** HTTP status of the worker's answer (only 200 answers are recorded). */
  status: number;
  body: unknown;
  /** FirstViewRequest.requiresNoAcknowledgements: used only while no acknowledgement is stored. */
  requires_no_acknowledgements?: boolean;
}

/** `first-view.json`. */
export interface FirstView {
  format: typeof FIRST_VIEW_FORMAT;
  /** The manifest's `created_at` (ISO 8601 UTC). */
  created_at: string;
  answers: FirstViewAnswer[];
}

/** A request the first view answers, and when its recorded answer holds. */
export interface FirstViewRequest {
  path: string;
  query: Record<string, string>;
  /**
   * The answer holds only while no alert acknowledgement is stored in the browser: the worker
   * merges the stored acknowledgements into the alerts (workers/api/alerts.ts), the converter has
   * none.
   */
  requiresNoAcknowledgements?: boolean;
}

/** The alerts' page the live dashboard asks for first (src/live/components/alerts-paging.ts): 20 alerts from the first. */
const FIRST_ALERTS_PAGE = { offset: '0', limit: '20' };

/**
 * The requests each live screen makes, opened from its plain URL, before it is complete
 * (src/routes): the live dashboard (KPI cards, Top 10, the map, the trend, the insurers, the
 * alerts' first page), the live comparison (its categories, the two Available counters and the
 * first page of `GET /api/service-pricing` with its default filters, docs/screens.md: every
 * competitor, sorted by overpayment, overpaying services only, 50 a page) and Data Coverage; the
 * dashboard's figures and the comparison's first page at shared providers too ('At shared
 * providers', a switch of both screens and a key of their URLs). Not
 * the snapshot screen: `GET /api/dataset` tells what the worker has open and read. `insurers` is the worker's answer to `GET /api/insurers`: the comparison names
 * the competitors it preselects (every insurer but the reference; the first insurer when none is
 * the reference), in that answer's order. test/ui/first-view-requests.test.ts holds these
 * queries equal to the ones the screens build.
 */
export function firstViewRequests(insurers: readonly LiveInsurer[]): FirstViewRequest[] {
  const competitors = insurers.some((i) => i.isReference) ? insurers.filter((i) => !i.isReference) : insurers.slice(0, 1);
  const pricing: Record<string, string> = { limit: '50', offset: '0', sort: 'overpayment', only_overpaying: 'true' };
  if (competitors.length > 0) pricing.competitors = competitors.map((i) => i.id).join(',');
  const shared = { shared_providers: 'true' };
  return [
    { path: '/api/dashboard-figures', query: {} },
    { path: '/api/regional-comparison', query: {} },
    { path: '/api/overpayment-trend', query: {} },
    { path: '/api/insurers', query: {} },
    // 'At shared providers' on the dashboard and the comparison: a switch, and a URL key of both
    { path: '/api/dashboard-figures', query: shared },
    { path: '/api/regional-comparison', query: shared },
    { path: '/api/overpayment-trend', query: shared },
    { path: '/api/service-pricing', query: { ...pricing, ...shared } },
    { path: '/api/alerts-page', query: FIRST_ALERTS_PAGE, requiresNoAcknowledgements: true },
    { path: '/api/service-categories', query: {} },
    { path: '/api/services-search', query: { limit: '1' } },
    { path: '/api/providers', query: { limit: '1' } },
    { path: '/api/service-pricing', query: pricing },
    { path: '/api/coverage', query: {} },
  ];
}

/**
 * The request of the market bands the live comparison asks for beside a first page it was answered
 * from the first view (src/live/components/market-band.ts marketBandParams): `pricing`, a
 * `GET /api/service-pricing` query of firstViewRequests, whose answer holds `records`; the page's
 * codes, sorted, under the same competitors. The converter records its answer too, so a screen
 * opened from its URL draws its strips without the worker (test/ui/first-view-requests.test.ts
 * holds the query equal to the screen's). Null for an empty page (no band is asked) and at shared
 * providers: those bands are not stored (contract/rules/market-band.ts), and computing them from the
 * page's rate rows would cost the conversion seconds and gigabytes at real size.
 */
export function firstViewBandRequest(pricing: Readonly<Record<string, string>>, records: ReadonlyArray<{ service_code: string }>): FirstViewRequest | null {
  if (records.length === 0 || pricing.shared_providers !== undefined) return null;
  const query: Record<string, string> = { services: [...new Set(records.map((r) => r.service_code))].sort().join(',') };
  if (pricing.competitors !== undefined) query.competitors = pricing.competitors;
  return { path: '/api/market-band', query };
}

/** The lookup key of a GET request: its path and its query parameters in key order. Pure. */
export function firstViewKey(path: string, query: Record<string, string>): string {
  const entries = Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${new URLSearchParams(entries).toString()}`;
}

/**
 * Parses `first-view.json`'s text. Returns null when it is not a first view (wrong format, missing
 * fields): the page then simply asks the worker. Never throws.
 */
export function parseFirstView(text: string): FirstView | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<FirstView>;
  if (v.format !== FIRST_VIEW_FORMAT || typeof v.created_at !== 'string' || !Array.isArray(v.answers)) return null;
  const ok = v.answers.every((a: Partial<FirstViewAnswer>) =>
    typeof a === 'object' && a !== null && typeof a.path === 'string' && typeof a.query === 'object' && a.query !== null && typeof a.status === 'number');
  return ok ? (v as FirstView) : null;
}
