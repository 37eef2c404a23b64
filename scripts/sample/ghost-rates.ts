/**
 * Ghost rates in the sample (docs/methodology.md, Where we bill it): real files list a rate for
 * every code a provider's contract names, most of them codes the provider never performs, often at
 * a low default amount. For a few procedures, each competitor's file also prices them at groups
 * whose kind of practice does not do that work (a primary-care practice with a knee replacement
 * fee), at 35-55 % of the service's base fee. Nobody there bills the code, so the reference
 * insurer's claims (claims.ts) never name them: 'Where we bill it' leaves them out, and the sample
 * shows the market average rise once they are gone.
 */
import type { SampleInsurer } from './insurers';
import { groupProviderCount, type NetworkGroup } from './networks';
import { KINDS } from './practice-kinds';
import type { PriceTemplate } from './price-templates';
import { rngFor } from './rng';
import type { SampleService } from './services';

/** How many procedures carry ghost rates. */
const GHOST_SERVICES = 8;
/**
 * Ghost providers per provider really priced for the code: about 40 % of the code's rate rows are
 * ghosts, enough to move a median by a tenth or so, not to make it a ghost's.
 */
const GHOST_SHARE = 0.65;

/** The procedures (surgical services with a professional fee) whose competitors post ghost rates; deterministic. */
export function ghostCodes(services: readonly SampleService[]): ReadonlySet<string> {
  const candidates = services.filter((s) => s.category === 'Surgical' && s.prof !== null && !s.named).map((s) => s.code);
  return new Set(rngFor('ghost-codes').shuffle(candidates).slice(0, GHOST_SERVICES));
}

/**
 * The ghost prices of `service` in `ins`'s network: one global professional price at
 * professional-billing groups that do not do the service's category (taken in a shuffled order
 * until their providers reach GHOST_SHARE of those of the groups priced for it, `priced`); empty
 * for the reference insurer and for other services.
 */
export function ghostPrices(ins: SampleInsurer, network: readonly NetworkGroup[], service: SampleService, priced: ReadonlySet<number>,
  isReference: boolean, codes: ReadonlySet<string>, stateFactor: (state: string) => number): Array<{ group: number; prices: PriceTemplate[] }> {
  if (isReference || !codes.has(service.code) || service.prof === null) return [];
  const out: Array<{ group: number; prices: PriceTemplate[] }> = [];
  const real = [...priced].reduce((n, group) => n + (network[group] ? groupProviderCount(network[group]) : 0), 0);
  const eligible = network.flatMap((g, group) => {
    const spec = KINDS[g.practice.kind];
    return priced.has(group) || g.role !== 'all' || spec.billing !== 'professional' || spec.categories.includes(service.category) ? [] : [group];
  });
  let ghosts = 0;
  for (const group of rngFor('ghost', ins.id, service.code).shuffle(eligible)) {
    if (ghosts >= GHOST_SHARE * real) break;
    const g = network[group]!;
    const rng = rngFor('ghost', ins.id, g.practice.id, service.code);
    ghosts += groupProviderCount(g);
    out.push({ group, prices: [{
      billingClass: 'professional', negotiatedType: ins.feeSchedule ? 'fee schedule' : 'negotiated',
      amount: (service.prof ?? 0) * stateFactor(g.practice.state) * rng.range(0.35, 0.55),
      // an outpatient hospital (a facility setting), where most of a procedure's professional fees
      // are (a hospital's surgeons), so that the ghost rate falls in the comparison unit of most real ones
      serviceCode: ['22'], modifiers: [], setting: 'outpatient', expiration: '9999-12-31',
    }] });
  }
  return out.sort((a, b) => a.group - b.group);
}
