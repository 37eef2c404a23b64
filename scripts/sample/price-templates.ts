/**
 * The prices an insurer has agreed with each provider group, before the insurer-wide level and the
 * month-to-month drift (rate-model.ts): which services a group is paid for, in which billing class,
 * at which places of service, with which modifiers, and the group's own deviation from the base.
 */
import { balanceClasses } from './class-balance';
import { ghostPrices } from './ghost-rates';
import { REFERENCE_INSURER, type SampleInsurer } from './insurers';
import type { NetworkGroup } from './networks';
import { KINDS } from './practice-kinds';
import { rngFor, type Rng } from './rng';
import type { SampleService } from './services';
import type { SampleCategory } from './services-data';

export type NegotiatedType = 'negotiated' | 'derived' | 'fee schedule' | 'percentage' | 'per diem';

/** One negotiated price object (CMS "Negotiated Price"), amount not yet final. */
export interface PriceTemplate {
  billingClass: 'professional' | 'institutional' | 'both';
  negotiatedType: NegotiatedType;
  /** USD before insurer level and drift; for `percentage`, the percent of billed charges itself. */
  amount: number;
  /** CMS place-of-service codes; [] when the class is not professional. */
  serviceCode: string[];
  modifiers: string[];
  /** v2 `setting`. */
  setting: 'inpatient' | 'outpatient' | 'both';
  /** `YYYY-MM-DD`; `9999-12-31` = no expiration. */
  expiration: string;
}

/** The prices of one service at the groups that are paid for it (group = index in the network). */
export interface ServiceTemplates {
  service: SampleService;
  groups: Array<{ group: number; prices: PriceTemplate[] }>;
}

/** Price level of each state relative to the national base (rough commercial geographic spread). */
export const STATE_PRICE_FACTORS: Readonly<Record<string, number>> = {
  CA: 1.22, NY: 1.3, TX: 0.94, FL: 0.97, IL: 1.02, GA: 0.92, OH: 0.9, WA: 1.12, AZ: 0.95, PA: 1.0,
};

function groupPrices(ins: SampleInsurer, g: NetworkGroup, s: SampleService, rng: Rng): PriceTemplate[] {
  const p = g.practice;
  const spec = KINDS[p.kind];
  const state = STATE_PRICE_FACTORS[p.state] ?? 1;
  const setting = s.inpatient ? 'both' : 'outpatient';
  const expiration = (): string => (rng.chance(0.06) ? rng.pick(['2026-03-31', '2026-06-30', '2026-12-31']) : '9999-12-31');
  const out: PriceTemplate[] = [];
  const prof = (amount: number, pos: string[], modifiers: string[]): void => {
    const noise = ins.feeSchedule ? 1 : rng.logNormal(0.1);
    out.push({ billingClass: 'professional', negotiatedType: ins.feeSchedule ? 'fee schedule' : 'negotiated', amount: amount * state * noise, serviceCode: pos, modifiers, setting, expiration: expiration() });
  };
  const inst = (amount: number, billingClass: PriceTemplate['billingClass'] = 'institutional'): void => {
    const type = ins.id === 'bcbs' && rng.chance(0.3) ? 'derived' : 'negotiated';
    out.push({ billingClass, negotiatedType: type, amount: amount * state * rng.logNormal(0.1), serviceCode: [], modifiers: [], setting, expiration: expiration() });
  };
  const billing = g.role === 'physicians' ? 'professional' : spec.billing;
  if (billing === 'professional' && s.prof !== null) {
    let pos = s.facility ? (rng.chance(0.5) ? ['21', '22'] : ['22', '24']) : spec.pos.slice();
    if (g.role === 'physicians') pos = s.category === 'Emergency' ? ['23'] : ['21', '22'];
    else if (!s.facility && pos[0] === '11' && rng.chance(0.25)) pos = ['11', '22'];
    if (ins.emptyFields && s.category === 'Office visit' && rng.chance(0.1)) pos = ['CSTM-00'];
    if (g.role === 'physicians' && s.category === 'Radiology') {
      // A hospital's radiologists bill only the reading (modifier 26) of some MRI/CT studies.
      if (s.pctc && rng.chance(0.35)) prof(s.prof * 0.33, pos, ['26']);
    } else {
      prof(s.prof, pos, []);
      // A few split rows: a radiology group's hospital reads (26), an imaging centre's technical part (TC).
      if (s.pctc && p.kind === 'radiology' && rng.chance(0.25)) prof(s.prof * 0.33, ['19', '22'], ['26']);
      if (s.pctc && p.kind === 'imaging' && rng.chance(0.2)) prof(s.prof * 0.67, pos, ['TC']);
    }
  } else if (billing === 'institutional' && s.inst !== null) {
    inst(s.inst * 0.75 * p.facilityFactor);
  } else if (billing === 'hospital' && s.inst !== null) {
    if ((s.category === 'Surgical' || s.category === 'Cardiac') && rng.chance(0.04)) {
      // Percent of billed charges (whole percents, as the CMS schema has them).
      out.push({ billingClass: 'institutional', negotiatedType: 'percentage', amount: Math.round(rng.range(35, 65) * 10) / 10, serviceCode: [], modifiers: [], setting, expiration: '9999-12-31' });
    } else {
      inst(s.inst * p.facilityFactor, ins.version === '2.0.0' && s.category === 'Lab' && rng.chance(0.35) ? 'both' : 'institutional');
    }
    if (s.inpatient && rng.chance(0.3)) {
      out.push({ billingClass: 'institutional', negotiatedType: 'per diem', amount: rng.range(2600, 4200) * p.facilityFactor * state, serviceCode: [], modifiers: [], setting: 'inpatient', expiration: '9999-12-31' });
    }
  }
  return out;
}

/** Categories a group is paid for: its kind's, or those of a hospital's employed physicians. */
function groupCategories(g: NetworkGroup): readonly SampleCategory[] {
  return g.role === 'physicians' ? HOSPITAL_PHYSICIAN_CATEGORIES : KINDS[g.practice.kind].categories;
}

/** What a hospital's employed physicians (emergency, radiology, surgery) bill professionally. */
const HOSPITAL_PHYSICIAN_CATEGORIES: readonly SampleCategory[] = ['Emergency', 'Radiology', 'Surgical'];

/**
 * The price templates of one insurer: for every service it pays (not in `excluded`), the groups
 * whose kind of practice bills that category, each with probability 0.9 (networks differ), and a
 * competitor's ghost rates of the `ghosts` procedures (ghost-rates.ts), trimmed
 * to the row structure every insurer shares (class-balance.ts: per state, professional dollar rows at
 * least twice the institutional ones, global professional rows at least twice the 26/TC ones).
 */
export function priceTemplates(ins: SampleInsurer, network: readonly NetworkGroup[], services: readonly SampleService[], excluded: ReadonlySet<string>,
  ghosts: ReadonlySet<string> = new Set()): ServiceTemplates[] {
  const out: ServiceTemplates[] = [];
  for (const service of services) {
    if (excluded.has(service.code)) continue;
    const groups: ServiceTemplates['groups'] = [];
    network.forEach((g, group) => {
      if (!groupCategories(g).includes(service.category)) return;
      const rng = rngFor('price', ins.id, g.practice.id, service.code);
      if (!rng.chance(0.9)) return;
      const prices = groupPrices(ins, g, service, rng);
      if (prices.length > 0) groups.push({ group, prices });
    });
    const priced = new Set(groups.map((g) => g.group));
    groups.push(...ghostPrices(ins, network, service, priced, ins.id === REFERENCE_INSURER, ghosts, (st) => STATE_PRICE_FACTORS[st] ?? 1));
    groups.sort((a, b) => a.group - b.group);
    const balanced = balanceClasses(ins.id, { service, groups }, network);
    if (balanced.length > 0) out.push({ service, groups: balanced });
  }
  return out;
}
