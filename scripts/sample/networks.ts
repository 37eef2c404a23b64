/**
 * Each insurer's network: the organisations (provider groups: one TIN and the NPIs under it) it has
 * contracted, drawn from the organisations in its regions. Insurers share many providers, but each
 * has its own subset; TIN-only organisations (`npi: [0]`) join only v1 networks.
 */
import type { SampleInsurer } from './insurers';
import type { ProviderUniverse, SamplePractice } from './providers';
import { rngFor } from './rng';

/** One provider group of an insurer. */
export interface NetworkGroup {
  practice: SamplePractice;
  /** NPIs of the practice in this network (empty for a TIN-only group). */
  npis: string[];
  /**
   * `all` the whole organisation; a hospital's TIN is split, as in real files, into its `facility`
   * (the organisation NPI, paid institutional rates) and its employed `physicians` (professional).
   */
  role: 'all' | 'facility' | 'physicians';
}

/** Providers a group stands for in the metrics (docs/methodology.md "Rows that count"): its NPIs, or 1 TIN. */
export function groupProviderCount(g: NetworkGroup): number {
  return g.practice.tinOnly ? 1 : g.npis.length;
}

function draw(ins: SampleInsurer, practice: SamplePractice): NetworkGroup[] {
  const rng = rngFor('network', ins.id, practice.id);
  if (!ins.regions.includes(practice.state)) return [];
  if (practice.tinOnly) return ins.version.startsWith('1.') && rng.chance(0.7) ? [{ practice, npis: [], role: 'all' }] : [];
  if (!rng.chance(ins.networkShare)) return [];
  // The first NPI (the organisation's, if any) always joins, and so does a hospital's first physician
  // (its emergency department is staffed); each other one with probability 0.85.
  const always = practice.kind === 'hospital' ? 2 : 1;
  const npis = practice.npis.filter((_, i) => i < always || rng.chance(0.85));
  if (practice.kind !== 'hospital') return [{ practice, npis, role: 'all' }];
  const [facility, ...physicians] = npis;
  const out: NetworkGroup[] = [{ practice, npis: facility ? [facility] : [], role: 'facility' }];
  if (physicians.length > 0) out.push({ practice, npis: physicians, role: 'physicians' });
  return out;
}

/**
 * Networks of all insurers, keyed by insurer id, groups in practice order. Every one of the 118
 * NPIs ends up in at least one network: an NPI no draw picked is added to the first insurer (in
 * list order) whose regions hold its state.
 */
export function buildNetworks(insurers: readonly SampleInsurer[], universe: ProviderUniverse): Map<string, NetworkGroup[]> {
  const out = new Map<string, NetworkGroup[]>();
  for (const ins of insurers) {
    out.set(ins.id, universe.practices.flatMap((p) => draw(ins, p)));
  }
  const covered = new Set<string>();
  for (const groups of out.values()) for (const g of groups) for (const n of g.npis) covered.add(n);
  for (const practice of universe.practices) {
    for (const npi of practice.npis) {
      if (covered.has(npi)) continue;
      const ins = insurers.find((i) => i.regions.includes(practice.state));
      if (!ins) throw new Error(`networks: no insurer covers ${practice.state}`);
      const groups = out.get(ins.id) ?? [];
      const role = practice.kind !== 'hospital' ? 'all' : npi === practice.npis[0] ? 'facility' : 'physicians';
      let group = groups.find((g) => g.practice === practice && g.role === role);
      if (!group) {
        group = { practice, npis: [], role };
        groups.push(group);
        groups.sort((a, b) => universe.practices.indexOf(a.practice) - universe.practices.indexOf(b.practice) || a.role.localeCompare(b.role));
      }
      group.npis.push(npi);
      group.npis.sort((a, b) => practice.npis.indexOf(a) - practice.npis.indexOf(b));
      covered.add(npi);
    }
  }
  return out;
}
