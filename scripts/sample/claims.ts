/**
 * `claims-volume.csv` (docs/converter.md, The catalog): the reference insurer's claim counts per service, state
 * and provider, header `billing_code,claims_count,state,npi,tin`. Counts follow how often each kind
 * of service is billed (office visits and labs high, imaging and surgery low) and the insurer's
 * membership by state; a code's count in a state is split over its billing providers there (the
 * reference insurer's providers priced for the code, each NPI with 85 % chance, a TIN-only group by
 * its TIN; docs/methodology.md, Where we bill it), or goes to a row naming none when it has none.
 */
import { csvText } from './csv';
import type { NetworkGroup } from './networks';
import type { ServiceTemplates } from './price-templates';
import { rngFor } from './rng';
import type { SampleService } from './services';
import type { SampleCategory } from './services-data';

/** Typical yearly claims per category for a large commercial book, before per-code variation. */
const CATEGORY_VOLUME: Readonly<Record<SampleCategory, number>> = {
  'Office visit': 9000,
  Lab: 7000,
  Emergency: 1500,
  Cardiac: 600,
  Radiology: 900,
  Surgical: 250,
};

/** Codes much more (or less) frequent than their category's typical volume. */
const CODE_WEIGHT: Readonly<Record<string, number>> = {
  '99213': 4, '99214': 3.2, '99203': 1.6, '99396': 1.5, '85025': 3, '80053': 2.8, '80061': 2.4, '83036': 2,
  '84443': 2, '93000': 6, '71046': 3, '71020': 1.2, '77067': 2.5, '45378': 3, '45380': 2.2, '70551': 0.3,
  '70553': 0.25, '27447': 0.5, '27130': 0.35, '23472': 0.15, '33249': 0.1, '93656': 0.15, '99291': 0.4, '99292': 0.2,
};

/** Share of the reference insurer's members in each of its states. */
function stateWeights(regions: readonly string[]): Map<string, number> {
  const raw: Record<string, number> = { CA: 0.3, NY: 0.22, GA: 0.12, OH: 0.12, TX: 0.08, FL: 0.08, IL: 0.08 };
  const total = regions.reduce((sum, s) => sum + (raw[s] ?? 0.05), 0);
  return new Map(regions.map((s) => [s, (raw[s] ?? 0.05) / total]));
}

/** A billing provider of the claims: an NPI, or the TIN of a group contracted without one. */
type Biller = { npi: string; tin: '' } | { npi: ''; tin: string };

/** Per code, per state: the reference insurer's billing providers (module comment), in network order. */
export function billingProviders(templates: readonly ServiceTemplates[], network: readonly NetworkGroup[]): Map<string, Map<string, Biller[]>> {
  const out = new Map<string, Map<string, Biller[]>>();
  for (const { service, groups } of templates) {
    const byState = new Map<string, Biller[]>();
    for (const { group } of groups) {
      const g = network[group];
      if (!g) continue;
      const list = byState.get(g.practice.state) ?? [];
      if (g.practice.tinOnly) list.push({ npi: '', tin: g.practice.tin.value });
      else for (const npi of g.npis) if (rngFor('bills', npi, service.code).chance(0.85)) list.push({ npi, tin: '' });
      byState.set(g.practice.state, list);
    }
    out.set(service.code, byState);
  }
  return out;
}

/**
 * The CSV text: per service and state of the reference insurer (counts >= 1 in all), one row per
 * billing provider with its share of the count (each >= 1; when the count is smaller than the
 * providers, the first ones), or one row naming no provider.
 */
export function claimsVolumeCsv(services: readonly SampleService[], regions: readonly string[], billers: ReadonlyMap<string, ReadonlyMap<string, readonly Biller[]>>): string {
  const weights = stateWeights(regions);
  const rows: Array<[string, number, string, string, string]> = [];
  for (const s of services) {
    const base = CATEGORY_VOLUME[s.category] * (CODE_WEIGHT[s.code] ?? rngFor('volume', s.code).range(0.3, 1.4));
    for (const [state, w] of weights) {
      const count = Math.max(1, Math.round(base * w * rngFor('volume', s.code, state).range(0.8, 1.25)));
      const at = (billers.get(s.code)?.get(state) ?? []).slice(0, count);
      if (at.length === 0) {
        rows.push([s.code, count, state, '', '']);
        continue;
      }
      // shares by a weight per provider, each at least 1, the rest to the first
      const share = at.map((b) => rngFor('share', s.code, state, b.npi || b.tin).range(0.5, 1.5));
      const total = share.reduce((a, b) => a + b, 0);
      const counts = share.map((x) => Math.max(1, Math.floor(((count - at.length) * x) / total) + 1));
      counts[0]! += count - counts.reduce((a, b) => a + b, 0);
      at.forEach((b, i) => rows.push([s.code, counts[i]!, state, b.npi, b.tin]));
    }
  }
  return csvText(['billing_code', 'claims_count', 'state', 'npi', 'tin'], rows);
}
