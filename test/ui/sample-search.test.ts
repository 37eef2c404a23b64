// Search matching and the unified/separate searches of the sample comparison, docs/screens.md (Sample comparison).
import { describe, expect, it } from 'vitest';
import { providerSearch, serviceSearch, unifiedSearch } from '../../src/sample/comparison/sample-search';
import type { SampleProvider } from '../../src/sample/data/providers';
import { addUnique, matchProviders, matchServices } from '../../src/sample/data/search';
import { SAMPLE_SERVICES } from '../../src/sample/data/services';

function provider(name: string, extra: Partial<SampleProvider> = {}): SampleProvider {
  return { id: name, name, shortName: '', type: 'clinic', marketShare: 1, memberCount: 1, regions: [], network: 'PPO',
    rating: 4, specialties: [], keywords: [], ...extra };
}

describe('service matching', () => {
  it('matches name, code, category, description and keywords case-insensitively', () => {
    expect(matchServices(SAMPLE_SERVICES, 'mri').map((s) => s.serviceCode)).toEqual(['70551']);
    expect(matchServices(SAMPLE_SERVICES, '7055').map((s) => s.serviceCode)).toEqual(['70551']);
    expect(matchServices(SAMPLE_SERVICES, 'cbc')[0]?.serviceCode).toBe('85025'); // keyword and name
    expect(matchServices(SAMPLE_SERVICES, 'GASTROENTEROLOGY').map((s) => s.serviceCode)).toEqual(['45378']); // keyword
    expect(matchServices(SAMPLE_SERVICES, 'frontal and lateral').map((s) => s.serviceCode)).toEqual(['71020']); // description
    // Category: 10 emergency services are generated, none named.
    expect(matchServices(SAMPLE_SERVICES, 'Emergency').filter((s) => s.category === 'Emergency')).toHaveLength(10);
  });
});

describe('provider matching', () => {
  it('puts names starting with the query first, then the rest, each alphabetical', () => {
    const list = [provider('Beta Clinic', { keywords: ['alpha'] }), provider('Alphabet Care'), provider('Zeta Alpha Center'),
      provider('Alpha Hospital'), provider('Gamma', { specialties: ['Cardiology'] })];
    expect(matchProviders(list, 'ALPHA').map((p) => p.name)).toEqual(['Alpha Hospital', 'Alphabet Care', 'Beta Clinic', 'Zeta Alpha Center']);
    expect(matchProviders(list, 'cardio').map((p) => p.name)).toEqual(['Gamma']); // specialties
    expect(matchProviders([provider('X', { network: 'HMO Plus' })], 'hmo')).toHaveLength(1); // network
    expect(matchProviders([provider('X', { type: 'hospital' })], 'hosp')).toHaveLength(1); // type
    expect(matchProviders([provider('X', { shortName: 'XYZ' })], 'xyz')).toHaveLength(1); // short name
  });

  it('ignores a duplicate selection', () => {
    const a = provider('A');
    expect(addUnique([a], provider('A'), (p) => p.id)).toHaveLength(1);
    expect(addUnique([a], provider('B'), (p) => p.id)).toHaveLength(2);
  });
});

describe('searches of the comparison screen', () => {
  it('unified: at most 5 services and 5 providers, total counts every match', () => {
    const r = unifiedSearch('a'); // nearly everything contains an 'a'
    expect(r.options.filter((h) => h.kind === 'service')).toHaveLength(5);
    expect(r.options.filter((h) => h.kind === 'provider')).toHaveLength(5);
    expect(r.total).toBe(matchServices(SAMPLE_SERVICES, 'a').length + providerSearch('a').total);
  });

  it('separate: at most 10 options', () => {
    const r = serviceSearch('lab');
    expect(r.options).toHaveLength(10);
    expect(r.total).toBeGreaterThan(10);
    expect(serviceSearch('zzzz')).toEqual({ options: [], total: 0 });
  });
});
