/**
 * Final negotiated rates of every insurer, service and snapshot:
 *   rate = template amount x level(insurer, service) x drift(insurer, service, snapshot), in USD,
 * rounded to cents. `percentage` rows keep their percent; `per diem` rows take the insurer's
 * general price level and the drift only.
 *
 * The reference insurer's level is calibrated per service so that, in the latest snapshot, its
 * national price (docs/methodology.md: median of its dollar rates, one row per NPI) sits a chosen percent
 * from the market average (the mean of the competitors' medians): above on 60 % of the services
 * that have both (by 10-26 %), below on the rest (by 1-5 %), so the claims-weighted Average
 * Overpayment lands near 10 %, inside the sample dashboard's 8-20 % trend axis. A few of
 * its services rise by 12-28 % between the last two snapshots, so the app has price-spike alerts to
 * show. Before that, each competitor's level is pulled into ±25 % of the competitors' mean price for
 * the service (market-band.ts); the prices' billing-class structure is fixed in class-balance.ts.
 */
import { REFERENCE_INSURER, SNAPSHOTS, type SampleInsurer } from './insurers';
import { bandFactors, nationalMedian } from './market-band';
import { ghostCodes } from './ghost-rates';
import type { NetworkGroup } from './networks';
import { priceTemplates, type ServiceTemplates } from './price-templates';
import { rngFor } from './rng';
import type { SampleService } from './services';

export interface RateModel {
  templates: Map<string, ServiceTemplates[]>;
  /** insurer -> code -> multiplier of dollar amounts. */
  level: Map<string, Map<string, number>>;
  /** insurer -> code -> multiplier per snapshot index (latest = 1). */
  drift: Map<string, Map<string, number[]>>;
  /** Codes of the reference insurer that rise > 10 % into the latest snapshot. */
  spikes: string[];
  /** Codes the reference insurer does not price; codes only it prices. */
  referenceMissing: string[];
  referenceOnly: string[];
}

/** Builds the whole model (deterministic). `networks` as buildNetworks returns them. */
export function buildRateModel(insurers: readonly SampleInsurer[], networks: Map<string, NetworkGroup[]>, services: readonly SampleService[]): RateModel {
  const ghosts = ghostCodes(services);
  const gaps = rngFor('gaps').shuffle(services.filter((s) => !s.named).map((s) => s.code));
  const referenceMissing = gaps.slice(0, 3);
  const referenceOnly = gaps.slice(3, 5);
  const templates = new Map<string, ServiceTemplates[]>();
  const level = new Map<string, Map<string, number>>();
  for (const ins of insurers) {
    const excluded = new Set(ins.id === REFERENCE_INSURER ? referenceMissing : referenceOnly);
    if (ins.id !== REFERENCE_INSURER) for (const s of services) if (rngFor('exclude', ins.id, s.code).chance(0.04)) excluded.add(s.code);
    templates.set(ins.id, priceTemplates(ins, networks.get(ins.id) ?? [], services, excluded, ghosts));
    const lv = new Map<string, number>();
    for (const s of services) lv.set(s.code, ins.priceLevel * rngFor('level', ins.id, s.code).logNormal(0.08));
    level.set(ins.id, lv);
  }
  // Competitors within the band of their mean (market-band.ts), in the latest snapshot (drift = 1).
  for (const s of services) {
    const prices = new Map<string, number>();
    for (const ins of insurers) {
      const st = ins.id === REFERENCE_INSURER ? undefined : templates.get(ins.id)?.find((t) => t.service.code === s.code);
      const m = st ? nationalMedian(st, networks.get(ins.id) ?? [], level.get(ins.id)?.get(s.code) ?? 1) : null;
      if (m !== null) prices.set(ins.id, m);
    }
    for (const [id, factor] of bandFactors(prices)) {
      const lv = level.get(id) as Map<string, number>;
      lv.set(s.code, (lv.get(s.code) ?? 1) * factor);
    }
  }
  // Calibrate the reference insurer against that market (drift = 1 in the latest snapshot).
  const refLevel = level.get(REFERENCE_INSURER) as Map<string, number>;
  const calibrations: Array<{ code: string; own: number; market: number }> = [];
  for (const st of templates.get(REFERENCE_INSURER) ?? []) {
    const code = st.service.code;
    const own = nationalMedian(st, networks.get(REFERENCE_INSURER) ?? [], 1);
    const competitors: number[] = [];
    for (const ins of insurers) {
      if (ins.id === REFERENCE_INSURER) continue;
      const other = templates.get(ins.id)?.find((t) => t.service.code === code);
      const m = other ? nationalMedian(other, networks.get(ins.id) ?? [], level.get(ins.id)?.get(code) ?? 1) : null;
      if (m !== null) competitors.push(m);
    }
    if (own !== null && competitors.length > 0) calibrations.push({ code, own, market: competitors.reduce((a, b) => a + b, 0) / competitors.length });
  }
  // Exactly 60 % (rounded) of the comparable services above the market, the rest below.
  const above = new Set(rngFor('above').shuffle(calibrations.map((c) => c.code)).slice(0, Math.round(calibrations.length * 0.6)));
  for (const { code, own, market } of calibrations) {
    const rng = rngFor('target', code);
    const target = above.has(code) ? rng.range(0.1, 0.26) : -rng.range(0.01, 0.05);
    refLevel.set(code, (market * (1 + target)) / own);
  }
  const priced = (templates.get(REFERENCE_INSURER) ?? []).map((t) => t.service.code).filter((c) => !referenceOnly.includes(c));
  const spikes = rngFor('spikes').shuffle(priced).slice(0, 6);
  const drift = new Map<string, Map<string, number[]>>();
  for (const ins of insurers) {
    const dv = new Map<string, number[]>();
    for (const s of services) {
      const d = new Array<number>(SNAPSHOTS.length).fill(1);
      for (let k = SNAPSHOTS.length - 2; k >= 0; k--) {
        const spike = ins.id === REFERENCE_INSURER && k === SNAPSHOTS.length - 2 && spikes.includes(s.code);
        const step = spike ? rngFor('spike', s.code).range(0.12, 0.28) : rngFor('drift', ins.id, s.code, k).range(-0.01, 0.025);
        d[k] = (d[k + 1] as number) / (1 + step);
      }
      dv.set(s.code, d);
    }
    drift.set(ins.id, dv);
  }
  return { templates, level, drift, spikes, referenceMissing, referenceOnly };
}

/** One final price of a snapshot (amount rounded to cents, or a percent for `percentage`). */
export interface FinalPrice {
  billingClass: string;
  negotiatedType: string;
  rate: number;
  serviceCode: string[];
  modifiers: string[];
  setting: string;
  expiration: string;
}

/** The insurer's prices in snapshot `snap` (index into SNAPSHOTS), per service and group. */
export function snapshotPrices(model: RateModel, ins: SampleInsurer, snap: number): Array<{ service: SampleService; groups: Array<{ group: number; prices: FinalPrice[] }> }> {
  return (model.templates.get(ins.id) ?? []).map(({ service, groups }) => {
    const level = model.level.get(ins.id)?.get(service.code) ?? 1;
    const drift = model.drift.get(ins.id)?.get(service.code)?.[snap] ?? 1;
    return {
      service,
      groups: groups.map(({ group, prices }) => ({
        group,
        prices: prices.map((p) => {
          const factor = p.negotiatedType === 'percentage' ? 1 : p.negotiatedType === 'per diem' ? ins.priceLevel * drift : level * drift;
          const rate = p.negotiatedType === 'percentage' ? p.amount : Math.max(0.01, Math.round(p.amount * factor * 100) / 100);
          return { billingClass: p.billingClass, negotiatedType: p.negotiatedType, rate, serviceCode: p.serviceCode, modifiers: p.modifiers, setting: p.setting, expiration: p.expiration };
        }),
      })),
    };
  });
}
