/**
 * `GET /api/service-price-details?service_id&provider_id&insurer_id` (docs/methodology.md, Live search):
 * one row per distinct (billing_class, negotiated_type, place-of-service codes, modifiers, rate) of
 * the insurer's rate rows for the service at the provider, in each insurer's latest snapshot.
 * Reference Price = median of the reference insurer's valid dollar rates there of the row's
 * comparison unit (class, component, setting); Market Average = mean over the other insurers with a
 * valid dollar rate there of that unit, each by its median. Each row carries its '% of Medicare' at
 * the provider's locality (medicare-at.ts) and its validation reason. `percentage` rows read as
 * percent, `per diem` as USD per day.
 */
import type { PriceDetail, PriceUnit } from '../../contract/api';
import type { Component, UnitSetting } from '../../contract/rules/medicare';
import { isDollarRate } from '../../contract/rules/metrics';
import { sql, SqlFragment } from '../db/sql';
import { dollarRateSql } from '../../contract/sql/unit-sql';
import type { Endpoint } from './endpoint';
import { invalidParam } from './errors';
import { MEDICARE_COLUMNS_SQL, MEDICARE_JOIN_SQL, medicareAt, ROW_UNIT_SQL, validationOf, VALIDATION_RANK_SQL, type MedicareColumns } from '../pricing/medicare-at';
import { required } from './params';
import { priceRowSql } from '../pricing/price-rows-sql';
import { latestSnapshot } from '../pricing/pricing-core';
import { PROVIDER_ID } from './params';
import { parseServiceId, serviceName } from './service-code';
import { chosenRows } from '../pricing/snapshots';

interface DetailRow extends MedicareColumns {
  [key: string]: string | number | null;
  billing_class: string;
  negotiated_type: string;
  negotiated_rate: number;
  service_codes: string;
  modifiers: string;
  snapshot: string;
  component: Component;
  unit_setting: UnitSetting;
  validation_rank: number | null;
  reference_price: number | null;
  market_average: number | null;
}

const unitOf = (type: string): PriceUnit => (type === 'percentage' ? 'percent' : type === 'per diem' ? 'usd_per_day' : 'usd');

export const servicePriceDetails: Endpoint<'GET /api/service-price-details'> = {
  route: 'GET /api/service-price-details',
  pure: true,
  parse(query, ctx) {
    const service_id = parseServiceId(query, ctx);
    const provider_id = required(query, 'provider_id');
    if (!PROVIDER_ID.test(provider_id)) throw invalidParam('provider_id', provider_id);
    const insurer_id = required(query, 'insurer_id');
    if (!ctx.manifest.insurers.some((i) => i.id === insurer_id)) throw invalidParam('insurer_id', insurer_id);
    return { service_id, provider_id, insurer_id };
  },
  async run(p, ctx): Promise<PriceDetail[]> {
    const month = latestSnapshot(ctx);
    await Promise.all([ctx.rates.ensure([p.service_id]), ctx.providerGroups.ensureMonths([month])]);
    const ref = ctx.manifest.reference_insurer;
    const price = priceRowSql('r');
    // x: the distinct rows of every insurer there (identical rows of several files once; valid when one of them is).
    const rows = ctx.db.all<DetailRow>(sql`
      WITH x AS (
        SELECT r.insurer_id, r.snapshot, r.billing_code, g.provider_id, ${price.select},
          any_value(component) AS component, any_value(unit_setting) AS unit_setting,
          ${VALIDATION_RANK_SQL}, max(r.medicare_rate) AS medicare_rate
        FROM (SELECT r.*, ${ROW_UNIT_SQL} FROM rates r) r JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
        WHERE r.billing_code = ${p.service_id} AND g.provider_id = ${p.provider_id}
          AND ${chosenRows(ctx.manifest, month, 'r')}
        GROUP BY r.insurer_id, r.snapshot, r.billing_code, g.provider_id, ${price.groupBy}
      ), valid AS (
        SELECT * FROM x WHERE ${new SqlFragment(dollarRateSql('negotiated_type', 'negotiated_rate', true), [])} AND validation_rank IS NULL
      ), med AS (
        SELECT insurer_id, billing_class, component, unit_setting, median(negotiated_rate) AS m
        FROM valid GROUP BY insurer_id, billing_class, component, unit_setting
      )
      SELECT x.billing_class, x.negotiated_type, x.negotiated_rate::DOUBLE AS negotiated_rate, x.service_codes, x.modifiers, x.snapshot,
        x.component, x.unit_setting, x.validation_rank, ${MEDICARE_COLUMNS_SQL},
        (SELECT m FROM med WHERE med.insurer_id = ${ref} AND med.billing_class = x.billing_class
          AND med.component = x.component AND med.unit_setting = x.unit_setting)::DOUBLE AS reference_price,
        (SELECT avg(m) FROM med WHERE med.insurer_id <> ${ref} AND med.billing_class = x.billing_class
          AND med.component = x.component AND med.unit_setting = x.unit_setting)::DOUBLE AS market_average
      FROM x ${MEDICARE_JOIN_SQL}
      WHERE x.insurer_id = ${p.insurer_id}
      ORDER BY x.billing_class, x.negotiated_type, x.service_codes, x.modifiers, x.negotiated_rate`);
    if (rows.length === 0) return [];
    const provider = ctx.db.all<{ name: string }>(sql`SELECT name FROM providers WHERE provider_id = ${p.provider_id}`)[0]?.name;
    const insurer = ctx.manifest.insurers.find((i) => i.id === p.insurer_id)!;
    const name = serviceName(ctx, p.service_id);
    const cf = ctx.manifest.medicare?.conversion_factor;
    return rows.map((r) => {
      const unit = unitOf(r.negotiated_type);
      const dollar = isDollarRate(r.negotiated_type, r.negotiated_rate);
      return {
        serviceName: name,
        providerName: provider ?? p.provider_id,
        insurerName: insurer.name,
        price: r.negotiated_rate,
        price_unit: unit,
        referencePrice: r.reference_price,
        marketAverage: r.market_average,
        billing_class: r.billing_class,
        component: r.component,
        setting: r.unit_setting,
        ...(dollar ? medicareAt(r.negotiated_rate, r, cf) : { medicare_pct: null, medicare_basis: null }),
        validation: dollar ? validationOf(r.validation_rank) : null,
        negotiated_type: r.negotiated_type,
        service_codes: r.service_codes,
        modifiers: r.modifiers,
        snapshot: r.snapshot,
      };
    });
  },
};
