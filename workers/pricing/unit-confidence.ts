/**
 * A comparison unit's confidence (docs/methodology.md, Confidence and distribution): the lowest of
 * its reference price's and the selected competitors' prices' (contract/rules/confidence.ts), low when
 * the unit is thin. With the competitors' lists (the records a screen shows, the CSV export) every
 * price is checked here and each reason names the insurers whose prices it lowers; without them (a pass that only
 * counts) the ranks the SQL computed per price (contract/sql/confidence-sql.ts) give the level alone.
 */
import { CONFIDENCE_LEVELS, priceConfidence, unitConfidence, type ConfidenceResult } from '../../contract/rules/confidence';
import { medicarePct } from '../../contract/rules/metrics';
import { productLabel } from '../../contract/rules/product';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { UnitColumns } from './pricing-core';
import type { ApiContext } from '../context';

/** Who a reason names: an insurer's label ('Company · Product'), by id. */
export type InsurerLabel = (id: string) => string;

/** Who the reasons of a unit's confidence name: the reference insurer's id and every insurer's label. */
export interface ConfidenceNames {
  reference: string;
  label: InsurerLabel;
}

/** The ConfidenceNames of `ctx`'s dataset. */
export const confidenceNames = (ctx: Pick<ApiContext, 'manifest'>): ConfidenceNames =>
  ({ reference: ctx.manifest.reference_insurer, label: insurerLabels(ctx.manifest) });

/** A record's `confidence` and `confidence_reasons`. */
export const confidenceFields = (c: ConfidenceResult): { confidence: ConfidenceResult['confidence']; confidence_reasons: string[] } =>
  ({ confidence: c.confidence, confidence_reasons: c.reasons });

/** The labels of the manifest's insurers (contract/rules/product.ts productLabel); an unknown id is itself. */
export function insurerLabels(manifest: Pick<DatasetManifest, 'insurers'>): InsurerLabel {
  const labels = new Map(manifest.insurers.map((i) => [i.id, productLabel(i.group, i.name)]));
  return (id) => labels.get(id) ?? id;
}

/**
 * The confidence of unit `r` whose thin reason is `thin` (null when not thin): from every price's
 * evidence when `r` carries the competitors' lists, else from the SQL ranks (reasons then only the
 * thin one). `label` names the insurers, `reference` is the reference insurer's id.
 */
export function recordConfidence(r: UnitColumns, thin: string | null, reference: string, label: InsurerLabel): ConfidenceResult {
  if (r.competitor_ids === null) {
    const ranks = [r.reference_conf, r.competitor_conf].filter((x): x is number => x !== null);
    const level = CONFIDENCE_LEVELS[Math.min(...ranks, CONFIDENCE_LEVELS.length - 1)]!;
    const u = unitConfidence([], thin);
    return u.confidence === 'low' ? u : { confidence: level, reasons: [] };
  }
  const prices: Array<{ who: string; result: ConfidenceResult }> = [];
  if (r.reference_price !== null) {
    prices.push({
      who: label(reference),
      result: priceConfidence({
        providers: r.reference_providers ?? 0, p10: r.reference_p10, p90: r.reference_p90,
        medicarePct: medicarePct(r.reference_price, r.medicare_rate), derived: r.reference_derived,
      }),
    });
  }
  r.competitor_ids.forEach((id, i) => {
    const price = r.competitor_medians![i]!;
    prices.push({
      who: label(id),
      result: priceConfidence({
        providers: r.competitor_counts![i]!, p10: r.competitor_p10s?.[i] ?? null, p90: r.competitor_p90s?.[i] ?? null,
        medicarePct: medicarePct(price, r.medicare_rate), derived: r.competitor_derived?.[i] ?? false,
      }),
    });
  });
  return unitConfidence(prices, thin);
}
