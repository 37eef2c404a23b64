/**
 * Encodes typed /api parameters (contract/api/index.ts) as a URL query string. Pure.
 */

/** A parameter value as the route map types it. */
export type ParamValue = string | number | boolean | readonly string[] | null | undefined;

/**
 * `{ limit: 50, offset: 0, competitors: ['a','b'], only_overpaying: true }` ->
 * `?limit=50&offset=0&competitors=a%2Cb&only_overpaying=true`.
 * Arrays are joined with ',' (contract: "comma-separated"); `undefined`, `null`, `''` and empty
 * arrays are left out; non-finite numbers are left out. Returns '' when nothing remains.
 */
export function encodeQuery(params: object): string {
  const search = new URLSearchParams();
  for (const [key, raw] of Object.entries(params) as Array<[string, ParamValue]>) {
    if (raw == null || raw === '') continue;
    if (Array.isArray(raw)) {
      if (raw.length > 0) search.set(key, raw.join(','));
    } else if (typeof raw === 'number') {
      if (Number.isFinite(raw)) search.set(key, String(raw));
    } else {
      search.set(key, String(raw));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
