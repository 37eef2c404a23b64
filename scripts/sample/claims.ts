/**
 * `claims-volume.csv` (docs/converter.md, The catalog): the reference insurer's claim counts per service and state,
 * header `billing_code,claims_count,state`. Counts follow how often each kind of service is billed
 * (office visits and labs high, imaging and surgery low) and the insurer's membership by state.
 */
import { csvText } from './csv';
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

/** The CSV text: one row per service and state of the reference insurer (counts >= 1). */
export function claimsVolumeCsv(services: readonly SampleService[], regions: readonly string[]): string {
  const weights = stateWeights(regions);
  const rows: Array<[string, number, string]> = [];
  for (const s of services) {
    const base = CATEGORY_VOLUME[s.category] * (CODE_WEIGHT[s.code] ?? rngFor('volume', s.code).range(0.3, 1.4));
    for (const [state, w] of weights) {
      const count = Math.max(1, Math.round(base * w * rngFor('volume', s.code, state).range(0.8, 1.25)));
      rows.push([s.code, count, state]);
    }
  }
  return csvText(['billing_code', 'claims_count', 'state'], rows);
}
