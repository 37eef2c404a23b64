/**
 * The SQL twin of contract/rules/confidence.ts priceConfidence (docs/methodology.md, Confidence and
 * distribution), for DuckDB: a price's confidence as its rank in CONFIDENCE_LEVELS (0 low,
 * 1 medium, 2 high), so that a selection can hide units under `min_confidence` and count the
 * summary cards without carrying every price into JavaScript. The reasons stay in JavaScript,
 * computed for the records shown. test/worker/confidence-sql.test.ts holds the two equal over a
 * grid of every boundary of the rules.
 */
import { CONFIDENCE_LEVELS, HIGH_MEDICARE, HIGH_SPREAD, HIGH_SUPPORT, MEDIUM_MEDICARE, MEDIUM_SPREAD, type Confidence } from '../rules/confidence';

/** The columns (SQL expressions) a price's confidence rests on: contract/rules/confidence.ts PriceEvidence, with the price and its Medicare amount. */
export interface PriceEvidenceSql {
  /** Distinct providers (INTEGER). */
  providers: string;
  /** p10 and p90 of the provider medians (DOUBLE, USD, or NULL). */
  p10: string;
  p90: string;
  /** The price (DOUBLE, USD) and the unit's Medicare amount (DOUBLE, USD, or NULL): % of Medicare as contract/rules/metrics.ts medicarePct. */
  price: string;
  medicareRate: string;
  /** Whether a row behind the price is `derived` (BOOLEAN, NULL as false). */
  derived: string;
}

/** The rank of `c` in CONFIDENCE_LEVELS: 0 low, 1 medium, 2 high. */
export const confidenceRank = (c: Confidence): number => CONFIDENCE_LEVELS.indexOf(c);

const LOW = confidenceRank('low');
const MEDIUM = confidenceRank('medium');
const HIGH = confidenceRank('high');

/** An SQL expression of a price's confidence rank (priceConfidence's, the lowest of its four checks). */
export function priceConfidenceRankSql(e: PriceEvidenceSql): string {
  const pct = `(100 * (${e.price}) / (${e.medicareRate}))`;
  const spread = `((${e.p90}) / (${e.p10}))`;
  return `least(
    CASE WHEN ${e.providers} < 2 THEN ${LOW} WHEN ${e.providers} < ${HIGH_SUPPORT} THEN ${MEDIUM} ELSE ${HIGH} END,
    CASE WHEN ${e.providers} >= ${HIGH_SUPPORT} AND (${e.p10}) > 0 AND (${e.p90}) IS NOT NULL
      THEN CASE WHEN ${spread} > ${MEDIUM_SPREAD} THEN ${LOW} WHEN ${spread} > ${HIGH_SPREAD} THEN ${MEDIUM} ELSE ${HIGH} END ELSE ${HIGH} END,
    CASE WHEN (${e.price}) IS NOT NULL AND (${e.medicareRate}) > 0
      THEN CASE WHEN ${pct} < ${MEDIUM_MEDICARE[0]} OR ${pct} > ${MEDIUM_MEDICARE[1]} THEN ${LOW}
                WHEN ${pct} < ${HIGH_MEDICARE[0]} OR ${pct} > ${HIGH_MEDICARE[1]} THEN ${MEDIUM} ELSE ${HIGH} END ELSE ${HIGH} END,
    CASE WHEN coalesce(${e.derived}, false) THEN ${MEDIUM} ELSE ${HIGH} END)`;
}
