/**
 * Confidence and position of a price and of a comparison unit (docs/methodology.md, Confidence and
 * distribution). Pure; the worker and the screens share it.
 *
 * A price's confidence is the lowest of four checks, each named as a reason when it lowers the
 * result:
 * - support: 5 providers or more high, 2-4 medium, 1 low;
 * - spread, with 5 providers or more: p90 / p10 of the provider medians up to 2 high, up to 4
 *   medium, above 4 low;
 * - Medicare, where the price has a % of Medicare: 75-400 % high, 50-75 % or 400-1,000 % medium,
 *   else low;
 * - negotiated type: a price resting on any `derived` row is at most medium.
 * A unit's confidence is the lowest of its reference price's and the selected competitors'
 * prices'; a thin unit is low.
 */

/** Confidence levels, lowest first. */
export const CONFIDENCE_LEVELS = ['low', 'medium', 'high'] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];

/** A confidence with the reasons that lowered it (empty when high). */
export interface ConfidenceResult {
  confidence: Confidence;
  reasons: string[];
}

/** What a price's confidence rests on. */
export interface PriceEvidence {
  /** Distinct providers behind the price (its support). */
  providers: number;
  /** Quantiles of the provider medians, USD; null when not known. */
  p10: number | null;
  p90: number | null;
  /** % of Medicare of the price; null without a benchmark. */
  medicarePct: number | null;
  /** Whether any row behind the price is `derived`. */
  derived: boolean;
}

/** Support from which a price is high (providers). */
export const HIGH_SUPPORT = 5;
/** Spread p90 / p10 up to which a price is high, and up to which medium. */
export const HIGH_SPREAD = 2;
export const MEDIUM_SPREAD = 4;
/** % of Medicare bands: high within [75, 400], medium within [50, 1000]. */
export const HIGH_MEDICARE: readonly [number, number] = [75, 400];
export const MEDIUM_MEDICARE: readonly [number, number] = [50, 1000];

const rank = (c: Confidence): number => CONFIDENCE_LEVELS.indexOf(c);

/** The lower of two confidences. */
export function lowerConfidence(a: Confidence, b: Confidence): Confidence {
  return rank(a) <= rank(b) ? a : b;
}

const pct = (v: number): string => `${Math.round(v).toLocaleString('en-US')} %`;
const ratio = (v: number): string => `${(Math.round(v * 10) / 10).toLocaleString('en-US')}x`;

/** A price's confidence and its reasons (docs/methodology.md, Confidence and distribution). */
export function priceConfidence(e: PriceEvidence): ConfidenceResult {
  const checks: Array<[Confidence, string]> = [];
  if (e.providers < 2) checks.push(['low', `rests on ${e.providers} provider${e.providers === 1 ? '' : 's'}`]);
  else if (e.providers < HIGH_SUPPORT) checks.push(['medium', `rests on ${e.providers} providers`]);
  if (e.providers >= HIGH_SUPPORT && e.p10 !== null && e.p90 !== null && e.p10 > 0) {
    const spread = e.p90 / e.p10;
    if (spread > MEDIUM_SPREAD) checks.push(['low', `providers' prices spread ${ratio(spread)} (p90 / p10)`]);
    else if (spread > HIGH_SPREAD) checks.push(['medium', `providers' prices spread ${ratio(spread)} (p90 / p10)`]);
  }
  if (e.medicarePct !== null) {
    const m = e.medicarePct;
    if (m < MEDIUM_MEDICARE[0] || m > MEDIUM_MEDICARE[1]) checks.push(['low', `${pct(m)} of Medicare`]);
    else if (m < HIGH_MEDICARE[0] || m > HIGH_MEDICARE[1]) checks.push(['medium', `${pct(m)} of Medicare`]);
  }
  if (e.derived) checks.push(['medium', 'rests on derived rates (an estimate, not a contract term)']);
  const confidence = checks.reduce<Confidence>((c, [level]) => lowerConfidence(c, level), 'high');
  // every check that lowered it below high is named, in the order of the rules
  return { confidence, reasons: checks.map(([, reason]) => reason) };
}

/**
 * A unit's confidence: the lowest of its prices' (the reference price and each selected
 * competitor's), low with the thin reason first when `thin`. Each reason is said once, with the
 * insurers whose prices it lowers in brackets ('rests on 1 provider (Cigna, Humana)'), in the order
 * first met.
 */
export function unitConfidence(prices: ReadonlyArray<{ who: string; result: ConfidenceResult }>, thin: string | null): ConfidenceResult {
  let confidence: Confidence = 'high';
  const reasons: string[] = [];
  if (thin !== null) {
    confidence = 'low';
    reasons.push(`too few providers: ${thin}`);
  }
  const whose = new Map<string, string[]>();
  for (const { who, result } of prices) {
    confidence = lowerConfidence(confidence, result.confidence);
    for (const r of result.reasons) whose.set(r, [...(whose.get(r) ?? []), who]);
  }
  for (const [r, who] of whose) reasons.push(`${r} (${who.join(', ')})`);
  return { confidence, reasons };
}

/**
 * The `q` quantile (0..1) of ascending `sorted` by linear interpolation, as DuckDB's
 * `quantile_cont`: the value at 0-based position (n - 1) x q, between its two neighbours; null
 * when empty.
 */
export function quantileCont(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)]!;
  // DuckDB's own form (its InterpolateOperator for DOUBLE): a + d (b - a) differs in the last bit for some prices in cents
  const d = h - lo;
  return a * (1 - d) + b * d;
}

/** A price's distribution over its providers: p10, p25, p75, p90 of the provider medians (USD; null without a row). */
export interface ProviderDistribution {
  p10: number | null;
  p25: number | null;
  p75: number | null;
  p90: number | null;
}

/**
 * The distribution of a price's valid rows (docs/methodology.md, Confidence and distribution):
 * each provider counts once, by the median of its rates (the midpoint of the two middle values
 * when even), and p10 .. p90 are quantileCont of those medians.
 */
export function providerDistribution(rows: ReadonlyArray<{ provider: string; rate: number }>): ProviderDistribution {
  const byProvider = new Map<string, number[]>();
  for (const r of rows) byProvider.set(r.provider, [...(byProvider.get(r.provider) ?? []), r.rate]);
  const medians = [...byProvider.values()].map((v) => {
    const s = [...v].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  }).sort((a, b) => a - b);
  return { p10: quantileCont(medians, 0.1), p25: quantileCont(medians, 0.25), p75: quantileCont(medians, 0.75), p90: quantileCont(medians, 0.9) };
}

/** Position of a unit with a variance (docs/methodology.md, Confidence and distribution). */
export type Position = 'above market' | 'at market' | 'below market';

/** Variance (percent) beyond which a unit is above or below market. */
export const AT_MARKET_PCT = 5;

/** `above market` over +5 %, `at market` from -5 % to +5 %, `below market` under -5 %; null without a variance. */
export function positionOf(variance: number | null): Position | null {
  if (variance === null) return null;
  if (variance > AT_MARKET_PCT) return 'above market';
  if (variance < -AT_MARKET_PCT) return 'below market';
  return 'at market';
}

/** Whether a unit of `confidence` passes the filter `min` (`min_confidence`; null: every unit). */
export function passesMinConfidence(confidence: Confidence, min: Exclude<Confidence, 'low'> | null): boolean {
  return min === null || rank(confidence) >= rank(min);
}
