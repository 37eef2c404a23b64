/**
 * The alert rules of metrics.md (Alerts), pure: thresholds, severities, the stable id, the text.
 * The worker computes the figures (reference price, market average, variance at the latest snapshot
 * and the one before) and hands them here.
 */

export const ALERT_TYPES = ['price_spike', 'outlier', 'market_shift'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export type AlertSeverity = 'high' | 'medium' | 'low';

/** The Alert entity (product-spec §3), with the spec's field names. */
export interface Alert {
  id: string;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  description: string;
  serviceCode: string;
  serviceName: string;
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

/** Figures of one service in one region at one month (null = no value). */
export interface AlertFigures {
  referencePrice: number | null;
  marketAverage: number | null;
  /** reference_variance, percent. */
  variance: number | null;
}

/** What `evaluateAlerts` needs about one (service, region). */
export interface AlertSubject {
  billingCode: string;
  serviceName: string;
  region: string;
  /** The latest snapshot `YYYY-MM` and the one before it. */
  snapshot: string;
  previousSnapshot: string;
  latest: AlertFigures;
  previous: AlertFigures;
}

/** Spike/shift severity (metrics.md): high >= 25 %, medium >= 15 %, else low. */
export function changeSeverity(percent: number): AlertSeverity {
  const a = Math.abs(percent);
  return a >= 25 ? 'high' : a >= 15 ? 'medium' : 'low';
}

/** Outlier severity (metrics.md): high >= 40 %, medium >= 30 %, else low. */
export function outlierSeverity(variance: number): AlertSeverity {
  return variance >= 40 ? 'high' : variance >= 30 ? 'medium' : 'low';
}

/**
 * The stable id of an alert: FNV-1a (64 bit) of `type|billing_code|region|snapshot`, 16 hex digits.
 * Stable across reloads and re-conversions (metrics.md, Alerts).
 */
export function alertId(type: AlertType, billingCode: string, region: string, snapshot: string): string {
  let h = 0xcbf29ce484222325n;
  const bytes = new TextEncoder().encode(`${type}|${billingCode}|${region}|${snapshot}`);
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
const usd = (x: number): string => `$${Math.round(x).toLocaleString('en-US')}`;

/** Relative change in percent, or null when either side is missing or the base is 0. */
function change(from: number | null, to: number | null): number | null {
  return from == null || to == null || from === 0 ? null : (100 * (to - from)) / from;
}

/**
 * The alerts of one (service, region), unacknowledged (metrics.md, Alerts):
 * - price_spike: reference price rose >= 10 % from the previous snapshot;
 * - outlier: reference_variance >= 20 % at the latest snapshot;
 * - market_shift: market average moved >= 10 % either way.
 * No alert compares against a month without a value for the figure.
 */
export function evaluateAlerts(s: AlertSubject): Alert[] {
  const out: Alert[] = [];
  const base = (type: AlertType, severity: AlertSeverity, title: string, description: string): Alert => ({
    id: alertId(type, s.billingCode, s.region, s.snapshot),
    type,
    severity,
    title,
    description,
    serviceCode: s.billingCode,
    serviceName: s.serviceName,
    region: s.region,
    affectedValue: s.latest.referencePrice ?? 0,
    marketValue: s.latest.marketAverage,
    createdAt: `${s.snapshot}-01`,
    acknowledged: false,
    acknowledgedBy: null,
    acknowledgedAt: null,
  });
  const where = s.region === ALL_REGION ? 'all states' : s.region;
  const spike = change(s.previous.referencePrice, s.latest.referencePrice);
  if (spike != null && spike >= 10 && s.latest.referencePrice != null) {
    out.push(base('price_spike', changeSeverity(spike), `Price spike: ${s.serviceName}`,
      `Our price for ${s.billingCode} in ${where} rose ${pct(spike)} from ${usd(s.previous.referencePrice!)} (${s.previousSnapshot}) to ${usd(s.latest.referencePrice)} (${s.snapshot}).`));
  }
  const v = s.latest.variance;
  if (v != null && v >= 20 && s.latest.referencePrice != null) {
    out.push(base('outlier', outlierSeverity(v), `Outlier price: ${s.serviceName}`,
      `Our price for ${s.billingCode} in ${where} is ${pct(v)} above the market average (${usd(s.latest.referencePrice)} vs ${usd(s.latest.marketAverage ?? 0)}).`));
  }
  const shift = change(s.previous.marketAverage, s.latest.marketAverage);
  if (shift != null && Math.abs(shift) >= 10 && s.latest.referencePrice != null) {
    out.push(base('market_shift', changeSeverity(shift), `Market shift: ${s.serviceName}`,
      `The market average for ${s.billingCode} in ${where} moved ${pct(shift)} from ${usd(s.previous.marketAverage!)} (${s.previousSnapshot}) to ${usd(s.latest.marketAverage!)} (${s.snapshot}).`));
  }
  return out;
}

const SEVERITY_RANK: Record<AlertSeverity, number> = { high: 0, medium: 1, low: 2 };

/** Order of the alerts list: severity (high first), then region ('All' first), code, type. */
export function compareAlerts(a: Alert, b: Alert): number {
  const k = (x: Alert): string => `${x.region === ALL_REGION ? '0' : '1'}${x.region}|${x.serviceCode}|${x.type}`;
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0);
}
