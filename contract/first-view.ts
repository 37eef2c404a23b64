/**
 * The first view: `first-view.json`, a small file of the dataset directory holding the worker's own
 * answers to the live dashboard's first requests (its default view: latest snapshot, every
 * competitor, every provider), computed by the converter with the worker's code (Node, DuckDB-WASM)
 * right after the tables are written (docs/architecture.md, Cold start). The page answers those
 * requests from it while DuckDB-WASM boots behind them, so the first figures never wait for the
 * database (issue: first figure in under 1.5 s). Everything else, and every request once a local
 * snapshot is open, goes to the worker.
 *
 * Shape: `{ format, created_at, answers: [{ path, query, status, body }] }`; `created_at` is the
 * manifest's, so a page can tell the file belongs to the dataset the worker opened.
 */
import type { ApiRequest } from './api';

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
}

/** `first-view.json`. */
export interface FirstView {
  format: typeof FIRST_VIEW_FORMAT;
  /** The manifest's `created_at` (ISO 8601 UTC). */
  created_at: string;
  answers: FirstViewAnswer[];
}

/**
 * The requests the live dashboard's default view makes before its first figure
 * (src/routes/LiveDashboard.tsx): KPI cards and Top 10, the map, the trend, the insurers. The alerts
 * are not among them: they depend on the acknowledgements stored in the browser.
 */
export const FIRST_VIEW_REQUESTS: ReadonlyArray<Pick<ApiRequest, 'path' | 'query'>> = [
  { path: '/api/dashboard-figures', query: {} },
  { path: '/api/regional-comparison', query: {} },
  { path: '/api/overpayment-trend', query: {} },
  { path: '/api/insurers', query: {} },
];

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
