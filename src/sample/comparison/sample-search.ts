/**
 * The comparison screen's searches over the sample catalogue, docs/screens.md (Sample
 * comparison): unified (at most 5 services and 5 providers) and separate (at most 10 of
 * one kind), as Autocomplete `SearchResult`s.
 */
import type { SearchResult } from '../../components/autocomplete/Autocomplete';
import type { SampleProvider } from '../data/providers';
import { SAMPLE_PROVIDERS } from '../data/providers';
import { AUTOCOMPLETE_LIMIT, UNIFIED_LIMIT, matchProviders, matchServices } from '../data/search';
import type { SampleService } from '../data/services';
import { SAMPLE_SERVICES } from '../data/services';

export type SearchHit = { kind: 'service'; service: SampleService } | { kind: 'provider'; provider: SampleProvider };

/** Key of a hit, unique across kinds. */
export const hitKey = (h: SearchHit) => (h.kind === 'service' ? `s:${h.service.serviceCode}` : `p:${h.provider.id}`);

/** Unified search: up to 5 services then up to 5 providers; total counts every match. */
export function unifiedSearch(query: string): SearchResult<SearchHit> {
  const services = matchServices(SAMPLE_SERVICES, query);
  const providers = matchProviders(SAMPLE_PROVIDERS, query);
  return {
    options: [
      ...services.slice(0, UNIFIED_LIMIT).map((service): SearchHit => ({ kind: 'service', service })),
      ...providers.slice(0, UNIFIED_LIMIT).map((provider): SearchHit => ({ kind: 'provider', provider })),
    ],
    total: services.length + providers.length,
  };
}

/** Separate service search: up to 10 services. */
export function serviceSearch(query: string): SearchResult<SearchHit> {
  const services = matchServices(SAMPLE_SERVICES, query);
  return { options: services.slice(0, AUTOCOMPLETE_LIMIT).map((service) => ({ kind: 'service', service })), total: services.length };
}

/** Separate provider search: up to 10 providers. */
export function providerSearch(query: string): SearchResult<SearchHit> {
  const providers = matchProviders(SAMPLE_PROVIDERS, query);
  return { options: providers.slice(0, AUTOCOMPLETE_LIMIT).map((provider) => ({ kind: 'provider', provider })), total: providers.length };
}
