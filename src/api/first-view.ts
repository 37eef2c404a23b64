/**
 * The page's side of the first view (contract/files/first-view.ts, docs/architecture.md, Cold start): the
 * dataset's `first-view.json`, fetched as soon as the page starts, answers the live screens'
 * default requests while the data worker boots DuckDB-WASM. It answers only for the dataset it
 * was written with: it stops answering when the worker reports another `created_at`, or when a
 * local snapshot is opened.
 */
import type { ApiRequest } from '../../contract/api';
import { FIRST_VIEW_FILE, firstViewKey, parseFirstView, type FirstView, type FirstViewAnswer } from '../../contract/files/first-view';

/** The recorded answers of one first view, by request. */
export interface FirstViewIndex {
  createdAt: string;
  /** The recorded answer to `request` (GET, same path and query), or undefined. */
  lookup(request: ApiRequest): FirstViewAnswer | undefined;
}

/** Indexes a parsed first view. Pure. */
export function indexFirstView(view: FirstView): FirstViewIndex {
  const byKey = new Map(view.answers.map((a) => [firstViewKey(a.path, a.query), a]));
  return {
    createdAt: view.created_at,
    lookup: (request) => (request.method.toUpperCase() === 'GET' ? byKey.get(firstViewKey(request.path, request.query)) : undefined),
  };
}

/**
 * Fetches `<dataUrl>first-view.json` with `fetchFn` (the page's own fetch, not the interceptor's).
 * Resolves to null when there is none (a dataset from an older converter, a refused read) or it does
 * not parse: the worker then answers everything. Never rejects.
 */
export async function fetchFirstView(fetchFn: typeof fetch, dataUrl: string): Promise<FirstViewIndex | null> {
  try {
    const res = await fetchFn(`${dataUrl}${FIRST_VIEW_FILE}`, { credentials: 'same-origin' });
    if (!res.ok) return null;
    const view = parseFirstView(await res.text());
    return view ? indexFirstView(view) : null;
  } catch {
    return null;
  }
}
