/**
 * The provider options of the live comparison and the live dashboard in the URL (docs/methodology.md,
 * Per comparison unit): "At shared providers" (`shared_providers=1`) and "Where we bill it"
 * (`billed=1`), each its key when on, absent when off (the default; `true` is read as on too). Pure.
 */

/** The URL key of "At shared providers", the same name as the /api parameter it turns on. */
export const SHARED_PROVIDERS_KEY = 'shared_providers';
/** The URL key of "Where we bill it", the same name as the /api parameter. */
export const BILLED_KEY = 'billed';

/** The shared-providers switch's one-line explanation (its tooltip and accessible description). */
export const SHARED_PROVIDERS_HELP = 'Prices only at providers that the reference insurer and at least one competitor both have rates with';
/** The billed switch's one-line explanation. */
export const BILLED_HELP = "Prices only at providers with at least one claim of the service in the reference insurer's claims";

/** The screens' provider options. */
export interface ProviderOptionsState {
  sharedProviders: boolean;
  billed: boolean;
}

/** Both options off: every provider. */
export const NO_PROVIDER_OPTIONS: ProviderOptionsState = { sharedProviders: false, billed: false };

const isOn = (search: URLSearchParams, key: string): boolean => {
  const v = search.get(key);
  return v === '1' || v === 'true';
};

/** Both options as the URL sets them. */
export function parseProviderOptions(search: URLSearchParams): ProviderOptionsState {
  return { sharedProviders: isOn(search, SHARED_PROVIDERS_KEY), billed: isOn(search, BILLED_KEY) };
}

/** Writes the options of `change` into a copy of `current`: `<key>=1` when on, the key removed when off; others untouched. */
export function writeProviderOptions(current: URLSearchParams, change: Partial<ProviderOptionsState>): URLSearchParams {
  const next = new URLSearchParams(current);
  const put = (key: string, on: boolean | undefined): void => {
    if (on === undefined) return;
    if (on) next.set(key, '1');
    else next.delete(key);
  };
  put(SHARED_PROVIDERS_KEY, change.sharedProviders);
  put(BILLED_KEY, change.billed);
  return next;
}

/** The /api parameters of the options: a key set to true for each option on. */
export function providerOptionsParam(o: ProviderOptionsState): { shared_providers?: true; billed?: true } {
  return { ...(o.sharedProviders ? { shared_providers: true as const } : {}), ...(o.billed ? { billed: true as const } : {}) };
}
