/**
 * The "At shared providers" option of the live comparison and the live dashboard (docs/methodology.md, Per
 * comparison unit, At shared providers) in the URL: `shared_providers=1` when on, absent when off
 * (the default; `true` is read as on too). Pure.
 */

/** The URL key, the same name as the /api parameter it turns on. */
export const SHARED_PROVIDERS_KEY = 'shared_providers';

/** The switch's one-line explanation (its tooltip and accessible description). */
export const SHARED_PROVIDERS_HELP = 'Prices only at providers that the reference insurer and at least one competitor both have rates with';

/** Whether the URL turns the option on. */
export function parseSharedProviders(search: URLSearchParams): boolean {
  const v = search.get(SHARED_PROVIDERS_KEY);
  return v === '1' || v === 'true';
}

/** Writes the option into a copy of `current`: `shared_providers=1`, or the key removed when off. */
export function writeSharedProviders(current: URLSearchParams, on: boolean): URLSearchParams {
  const next = new URLSearchParams(current);
  if (on) next.set(SHARED_PROVIDERS_KEY, '1');
  else next.delete(SHARED_PROVIDERS_KEY);
  return next;
}

/** The /api parameter of the option: `{ shared_providers: true }` when on, `{}` when off. */
export function sharedProvidersParam(on: boolean): { shared_providers?: true } {
  return on ? { shared_providers: true } : {};
}
