/**
 * The live search's selection in the URL (`service`, `provider`, `insurer`, and `run=1` once
 * Search was pressed), so a result can be bookmarked and shared. Pure.
 */

export interface LiveSearchState {
  /** Billing code, or null. */
  service: string | null;
  /** Provider id (NPI or `TIN:<tin>`), or null. */
  provider: string | null;
  insurer: string | null;
  /** Whether the search was run with this selection. */
  run: boolean;
}

export function parseLiveSearch(search: URLSearchParams): LiveSearchState {
  const get = (k: string) => search.get(k) || null;
  return { service: get('service'), provider: get('provider'), insurer: get('insurer'), run: search.get('run') === '1' };
}

export function writeLiveSearch(current: URLSearchParams, s: LiveSearchState): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const k of ['service', 'provider', 'insurer'] as const) {
    const v = s[k];
    if (v) next.set(k, v);
    else next.delete(k);
  }
  if (s.run) next.set('run', '1');
  else next.delete('run');
  return next;
}

/** A new service clears provider and insurer, docs/screens.md (Live search), and the last result. */
export function withService(s: LiveSearchState, service: string | null): LiveSearchState {
  return service === s.service ? s : { service, provider: null, insurer: null, run: false };
}

/** Search is enabled only with all three chosen. */
export function canSearch(s: LiveSearchState): boolean {
  return s.service !== null && s.provider !== null && s.insurer !== null;
}
