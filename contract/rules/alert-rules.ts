/**
 * The alert rules of docs/methodology.md (Alerts), pure: thresholds, support, severities, the stable id, the
 * order, the text. The worker computes the figures of each comparison unit (reference price, market
 * average, variance and their support at the latest snapshot and the one before) and hands them here.
 */
import type { UnitBillingClass } from '../files/dataset';
import type { Component, UnitSetting } from './medicare';
import { compareUnits } from './metrics';

export const ALERT_TYPES = ['price_spike', 'outlier', 'market_shift'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const ALERT_SEVERITIES = ['high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** The Alert entity, docs/screens.md (Entities), with the product's field names. */
export interface Alert {
  id: string;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  description: string;
  serviceCode: string;
  serviceName: string;
  /** The comparison unit's billing class, component and setting (docs/methodology.md, Per comparison unit). */
  billingClass: UnitBillingClass;
  component: Component;
  setting: UnitSetting;
  /** Two-letter state code or `All`. */
  region: string;
  /** The reference price at the latest snapshot, USD. */
  affectedValue: number;
  /** The market average at the latest snapshot, USD (null when there is none). */
  marketValue: number | null;
  /** The snapshot's first day, `YYYY-MM-01`. */
  createdAt: string;
  acknowledged: boolean;
  acknowledgedBy: string | null;
  /** ISO 8601 UTC. */
  acknowledgedAt: string | null;
}

/** The region of the whole market in alerts. */
export const ALL_REGION = 'All' as const;

/** Figures of one unit in one region at one month (null = no value). */
export interface AlertFigures {
  referencePrice: number | null;
  marketAverage: number | null;
  /** reference_variance, percent. */
  variance: number | null;
  /** Providers behind referencePrice (0 without one). */
  referenceProviders: number;
  /** Providers behind the competitor prices, added up (0 without any). */
  competitorProviders: number;
  /** Whether the unit is thin there (docs/methodology.md, Per comparison unit). */
  thin: boolean;
}

/** What `evaluateAlerts` needs about one (comparison unit, region). */
export interface AlertSubject {
  billingCode: string;
  billingClass: UnitBillingClass;
  component: Component;
  setting: UnitSetting;
  serviceName: string;
  region: string;
  /** The latest snapshot `YYYY-MM` and the one before it. */
  snapshot: string;
  previousSnapshot: string;
  latest: AlertFigures;
  previous: AlertFigures;
  /** The unit's claims_volume in the region at the latest snapshot (the dollar impact's weight). */
  claimsVolume: number;
  /** The dataset's `min_providers` (manifest `validation`). */
  minProviders: number;
}

/** An alert with what orders it (docs/methodology.md, Alerts): its dollar impact and its percent change. */
export interface RankedAlert {
  alert: Alert;
  /** USD x claims: |change of the reference price|, reference - market, or |change of the market average|, times claims_volume. */
  impact: number;
  /** |percent change| (price_spike, market_shift) or the variance (outlier). */
  change: number;
}

/** Spike/shift severity (docs/methodology.md): high >= 25 %, medium >= 15 %, else low. */
export function changeSeverity(percent: number): AlertSeverity {
  const a = Math.abs(percent);
  return a >= 25 ? 'high' : a >= 15 ? 'medium' : 'low';
}

/** Outlier severity (docs/methodology.md): high >= 40 %, medium >= 30 %, else low. */
export function outlierSeverity(variance: number): AlertSeverity {
  return variance >= 40 ? 'high' : variance >= 30 ? 'medium' : 'low';
}

/** FNV-1a (64 bit) of a text, 16 hex digits. */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

/**
 * The stable id of an alert: FNV-1a (64 bit) of
 * `type|billing_code|billing_class|component|setting|region|snapshot`, 16 hex digits.
 * Stable across reloads and re-conversions (docs/methodology.md, Alerts).
 */
export function alertId(
  type: AlertType,
  billingCode: string,
  billingClass: string,
  component: string,
  setting: string,
  region: string,
  snapshot: string,
): string {
  return fnv1a64(`${type}|${billingCode}|${billingClass}|${component}|${setting}|${region}|${snapshot}`);
}

/**
 * The id an alert had when alerts were per service (before comparison units): FNV-1a (64 bit) of
 * `type|billing_code|region|snapshot`. Acknowledgements stored under such an id carry over
 * (docs/methodology.md, Alerts; alertsOfLegacyId).
 */
export function legacyAlertId(type: AlertType, billingCode: string, region: string, snapshot: string): string {
  return fnv1a64(`${type}|${billingCode}|${region}|${snapshot}`);
}

/**
 * The alerts an acknowledgement stored under a per-service id (legacyAlertId) carries over to:
 * every alert of `alerts` of the same type, code, region and snapshot, whatever its unit
 * (docs/methodology.md, Alerts). [] when `id` is no such id of any of them.
 */
export function alertsOfLegacyId(id: string, alerts: readonly Alert[]): Alert[] {
  return alerts.filter((a) => legacyAlertId(a.type, a.serviceCode, a.region, a.createdAt.slice(0, 7)) === id);
}

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
const usd = (x: number): string => `$${Math.round(x).toLocaleString('en-US')}`;

/** Relative change in percent, or null when either side is missing or the base is 0. */
function change(from: number | null, to: number | null): number | null {
  return from == null || to == null || from === 0 ? null : (100 * (to - from)) / from;
}

/** A unit as the alert texts name it: `99213 (professional, non-facility)`, `70450 (professional, 26, facility)`. */
export function unitLabel(code: string, billingClass: string, component: string, setting: string): string {
  return `${code} (${billingClass}${component === 'global' ? '' : `, ${component}`}, ${setting})`;
}

/** Percent change from the previous snapshot at which a price spike or a market shift is raised (docs/methodology.md, Alerts). */
export const ALERT_CHANGE_PCT = 10;
/** Reference variance, percent, at which an outlier is raised (docs/methodology.md, Alerts). */
export const ALERT_OUTLIER_PCT = 20;

/**
 * The alerts of one (unit, region), unacknowledged, with their rank (docs/methodology.md, Alerts):
 * - price_spike: reference price rose >= 10 % from the previous snapshot, both prices resting on at
 *   least `minProviders` providers;
 * - outlier: reference_variance >= 20 % at the latest snapshot, the unit not thin there;
 * - market_shift: market average moved >= 10 % either way, the competitor prices of both months
 *   resting on at least `minProviders` providers together.
 * No alert compares against a month without a value for the figure.
 */
export function evaluateAlerts(s: AlertSubject): RankedAlert[] {
  const out: RankedAlert[] = [];
  const push = (type: AlertType, severity: AlertSeverity, title: string, description: string, impact: number, pctChange: number): void => {
    out.push({
      alert: {
        id: alertId(type, s.billingCode, s.billingClass, s.component, s.setting, s.region, s.snapshot),
        type,
        severity,
        title,
        description,
        serviceCode: s.billingCode,
        serviceName: s.serviceName,
        billingClass: s.billingClass,
        component: s.component,
        setting: s.setting,
        region: s.region,
        affectedValue: s.latest.referencePrice ?? 0,
        marketValue: s.latest.marketAverage,
        createdAt: `${s.snapshot}-01`,
        acknowledged: false,
        acknowledgedBy: null,
        acknowledgedAt: null,
      },
      impact: impact * s.claimsVolume,
      change: Math.abs(pctChange),
    });
  };
  const where = s.region === ALL_REGION ? 'all states' : s.region;
  const unit = unitLabel(s.billingCode, s.billingClass, s.component, s.setting);
  const ref = s.latest.referencePrice;
  const spike = change(s.previous.referencePrice, ref);
  const spikeSupported = s.latest.referenceProviders >= s.minProviders && s.previous.referenceProviders >= s.minProviders;
  if (spike != null && spike >= ALERT_CHANGE_PCT && ref != null && spikeSupported) {
    const from = s.previous.referencePrice!;
    push('price_spike', changeSeverity(spike), `Price spike: ${s.serviceName}`,
      `Our price for ${unit} in ${where} rose ${pct(spike)} from ${usd(from)} (${s.previousSnapshot}) to ${usd(ref)} (${s.snapshot}).`,
      Math.abs(ref - from), spike);
  }
  const v = s.latest.variance;
  if (v != null && v >= ALERT_OUTLIER_PCT && ref != null && s.latest.marketAverage != null && !s.latest.thin) {
    push('outlier', outlierSeverity(v), `Outlier price: ${s.serviceName}`,
      `Our price for ${unit} in ${where} is ${pct(v)} above the market average (${usd(ref)} vs ${usd(s.latest.marketAverage)}).`,
      ref - s.latest.marketAverage, v);
  }
  const market = s.latest.marketAverage;
  const shift = change(s.previous.marketAverage, market);
  const shiftSupported = s.latest.competitorProviders >= s.minProviders && s.previous.competitorProviders >= s.minProviders;
  if (shift != null && Math.abs(shift) >= ALERT_CHANGE_PCT && ref != null && market != null && shiftSupported) {
    const from = s.previous.marketAverage!;
    push('market_shift', changeSeverity(shift), `Market shift: ${s.serviceName}`,
      `The market average for ${unit} in ${where} moved ${pct(shift)} from ${usd(from)} (${s.previousSnapshot}) to ${usd(market)} (${s.snapshot}).`,
      Math.abs(market - from), shift);
  }
  return out;
}

const SEVERITY_RANK: Record<AlertSeverity, number> = { high: 0, medium: 1, low: 2 };

const text = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Order of the alerts list (docs/methodology.md, Alerts): severity (high first), then dollar impact,
 * largest first; ties by |percent change|, largest first, then region ('All' first, then by code),
 * service code, the unit (billing class, component, setting: contract/rules/metrics.ts compareUnits),
 * type.
 */
export function compareRankedAlerts(a: RankedAlert, b: RankedAlert): number {
  const x = a.alert;
  const y = b.alert;
  const region = (r: string): string => `${r === ALL_REGION ? '0' : '1'}${r}`;
  return (
    SEVERITY_RANK[x.severity] - SEVERITY_RANK[y.severity] ||
    b.impact - a.impact ||
    b.change - a.change ||
    text(region(x.region), region(y.region)) ||
    text(x.serviceCode, y.serviceCode) ||
    compareUnits(
      { billing_class: x.billingClass, component: x.component, setting: x.setting },
      { billing_class: y.billingClass, component: y.component, setting: y.setting },
    ) ||
    text(x.type, y.type)
  );
}
