/**
 * Search matching of the comparison screen, docs/screens.md (Sample comparison): case-insensitive substring matching.
 * Services match on name, code, category, description and keywords, in catalogue order.
 * Providers match on name, short name, type, network, keywords and specialties; names starting
 * with the query come first, then the others, each group alphabetical by name.
 */
import type { SampleProvider } from './providers';
import type { SampleService } from './services';

/** Options an autocomplete list shows at most. */
export const AUTOCOMPLETE_LIMIT = 10;
/** Services and providers each shown at most by the unified search. */
export const UNIFIED_LIMIT = 5;

const norm = (s: string) => s.trim().toLowerCase();

/** Services matching `query` (all of them for a blank query). */
export function matchServices(services: readonly SampleService[], query: string): SampleService[] {
  const q = norm(query);
  if (!q) return [...services];
  return services.filter((s) =>
    [s.serviceName, s.serviceCode, s.category, s.description, ...s.keywords].some((f) => f.toLowerCase().includes(q)),
  );
}

/** Providers matching `query`: prefix matches on the name first, then alphabetical. */
export function matchProviders(providers: readonly SampleProvider[], query: string): SampleProvider[] {
  const q = norm(query);
  const byName = (a: SampleProvider, b: SampleProvider) => a.name.localeCompare(b.name, 'en-US');
  if (!q) return [...providers].sort(byName);
  const hits = providers.filter((p) =>
    [p.name, p.shortName, p.type, p.network, ...p.keywords, ...p.specialties].some((f) => f.toLowerCase().includes(q)),
  );
  const prefix = hits.filter((p) => p.name.toLowerCase().startsWith(q)).sort(byName);
  const rest = hits.filter((p) => !p.name.toLowerCase().startsWith(q)).sort(byName);
  return [...prefix, ...rest];
}

/** Adds `item` to `list` unless an item with the same key is there (duplicates ignored). */
export function addUnique<T>(list: readonly T[], item: T, key: (x: T) => string): T[] {
  const k = key(item);
  return list.some((x) => key(x) === k) ? [...list] : [...list, item];
}
