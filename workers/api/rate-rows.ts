/**
 * `GET /api/rate-rows?service_id&insurer_id[&billing_class][&component&setting][&state][&snapshot][&providers][&shared_providers][&billed]`:
 * the rate rows behind one median of the live screens, so any price can be traced to its files.
 *
 * The rows are those docs/methodology.md ("Rows that count", "Per comparison unit") puts into `price(s, i)`:
 * the insurer's rate rows for the code in its latest snapshot at or before month M, with a
 * resolved provider, negotiated type `negotiated`/`fee schedule`/`derived` and rate > 0, of one
 * comparison unit (`billing_class`, `component` and `setting` given: class, component and setting
 * match exactly) or narrowed by a billing-class chip (a `both` row passes either), and by the
 * provider's state; identical rows (same provider, class, type, rate, place of service, modifiers)
 * count once, whichever files publish them, and a group of several NPIs gives one row per NPI.
 * Rows that failed validation are listed with their reason and enter neither the median nor the
 * counts (docs/methodology.md, Validation); each row carries its '% of Medicare' at the provider's locality
 * (medicare-at.ts). The code's row groups load on demand (workers/db/rates.ts), the month's provider
 * groups by source (workers/db/provider-groups.ts).
 *
 * `shared_providers=1` (docs/methodology.md, Per comparison unit, At shared providers): only the rows at
 * providers (matched by provider id) where the other side has a valid dollar row of the same code
 * and unit at month M: for the reference insurer, any other insurer of the dataset; for another
 * insurer, the reference insurer; so the median is the one the screens show with that option.
 * `billed=1` (docs/methodology.md, Per comparison unit, Where we bill it): only the rows at billing
 * providers of the code (`billing_providers`); with `shared_providers=1`, both hold.
 */
import { BILLING_CLASS_FILTERS, type RateRowRecord, type RateRowSource, type RateRowsParams, type RateRowsResult } from '../../contract/api';
import { UNIT_BILLING_CLASSES } from '../../contract/files/dataset';
import type { Component, UnitSetting } from '../../contract/rules/medicare';
import { priceConfidence, providerDistribution } from '../../contract/rules/confidence';
import { medicarePct } from '../../contract/rules/metrics';
import { productLabel } from '../../contract/rules/product';
import { RATE_ROW_PRICE_COLUMNS, type RateRowPriceFields } from '../../contract/files/price-columns';
import { dollarRateSql } from '../../contract/sql/unit-sql';
import { sql, SqlFragment } from '../db/sql';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';
import { invalidParam } from './errors';
import { MEDICARE_COLUMNS_SQL, MEDICARE_JOIN_SQL, medicareAt, ROW_UNIT_SQL, validationOf, VALIDATION_RANK_SQL, type MedicareColumns } from '../pricing/medicare-at';
import { optional, parseOneOf, parseProviderIds, parseProviderOptions, parseSnapshot, parseStateCode, required } from './params';
import { latestSnapshot } from '../pricing/pricing-core';
import { priceRowColumns, priceRowOrder, priceRowSql } from '../pricing/price-rows-sql';
import { billedRowCond, VALID_DOLLAR_ROW } from '../pricing/provider-prices';
import { parseServiceId, serviceName } from './service-code';
import { sourceSnapshots } from '../pricing/snapshots';

const COMPONENTS: readonly Component[] = ['global', '26', 'TC'];
const SETTINGS: readonly UnitSetting[] = ['facility', 'non-facility'];

function parse(query: Readonly<Record<string, string>>, ctx: ApiContext): RateRowsParams {
  const p: RateRowsParams = { service_id: parseServiceId(query, ctx), insurer_id: required(query, 'insurer_id') };
  if (!ctx.manifest.insurers.some((i) => i.id === p.insurer_id)) throw invalidParam('insurer_id', p.insurer_id);
  const component = optional(query, 'component');
  const setting = optional(query, 'setting');
  const cls = optional(query, 'billing_class');
  if (component !== undefined || setting !== undefined) {
    // One comparison unit: its class, component and setting, all three.
    if (component === undefined) throw invalidParam('component', '');
    if (setting === undefined) throw invalidParam('setting', '');
    p.component = parseOneOf('component', component, COMPONENTS);
    p.setting = parseOneOf('setting', setting, SETTINGS);
    p.billing_class = parseOneOf('billing_class', cls ?? '', UNIT_BILLING_CLASSES);
  } else if (cls !== undefined) {
    p.billing_class = parseOneOf('billing_class', cls, BILLING_CLASS_FILTERS);
  }
  const state = optional(query, 'state');
  if (state !== undefined) p.state = parseStateCode('state', state);
  Object.assign(p, parseSnapshot(query, ctx.manifest.snapshots));
  const providers = parseProviderIds(query);
  if (providers) p.providers = providers;
  return Object.assign(p, parseProviderOptions(query, ctx.manifest));
}

/**
 * With shared providers, the CTE `other` (provider_id, billing_class, component, unit_setting): where
 * the other side (see the module comment) has a valid dollar row of the code at month M, and the
 * condition keeping the rows of alias `r`/`g` there; without, empty fragments.
 */
function sharedSql(p: RateRowsParams, ctx: ApiContext, month: string): { cte: SqlFragment; cond: SqlFragment } {
  if (p.shared_providers !== true) return { cte: sql``, cond: sql`` };
  const reference = ctx.manifest.reference_insurer;
  const pairs = [...sourceSnapshots(ctx.manifest, month)]
    .filter(([id]) => (p.insurer_id === reference ? id !== reference : id === reference))
    .map(([id, snapshot]) => `${id}|${snapshot}`);
  return {
    cte: sql`other AS (
      SELECT DISTINCT g.provider_id, r.billing_class, r.component, r.unit_setting
      FROM (SELECT r.*, ${ROW_UNIT_SQL} FROM rates r) r
      JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
      WHERE r.billing_code = ${p.service_id} AND (r.insurer_id || '|' || r.snapshot) IN (${pairs}) AND ${VALID_DOLLAR_ROW}
    ), `,
    cond: sql`AND EXISTS (SELECT 1 FROM other o WHERE o.provider_id = g.provider_id AND o.billing_class = r.billing_class
      AND o.component = r.component AND o.unit_setting = r.unit_setting)`,
  };
}

type Row = Omit<RateRowRecord, 'source_ids' | 'setting' | 'medicare_pct' | 'medicare_basis' | 'validation'> & MedicareColumns & {
  insurer_id: string;
  source_ids: number[];
  unit_setting: UnitSetting;
  validation_rank: number | null;
  [k: string]: string | number | boolean | null | number[];
};

/** The median of ascending `xs` (midpoint of the two middle values when even); null when empty. */
export function medianOf(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function run(p: RateRowsParams, ctx: ApiContext): Promise<RateRowsResult> {
  const { manifest } = ctx;
  const month = p.snapshot ?? latestSnapshot(ctx);
  const snapshot = sourceSnapshots(manifest, month).get(p.insurer_id) ?? null;
  const cls = p.billing_class ?? 'all';
  const unit = p.component !== undefined && p.setting !== undefined ? { component: p.component, setting: p.setting } : null;
  const insurer = manifest.insurers.find((i) => i.id === p.insurer_id)!;
  const base = {
    service_code: p.service_id, service_name: serviceName(ctx, p.service_id), insurer_id: p.insurer_id,
    insurer_name: productLabel(insurer.group, insurer.name), month, snapshot, billing_class: cls, component: unit?.component ?? null,
    setting: unit?.setting ?? null, state: p.state ?? null, shared_providers: p.shared_providers === true, billed: p.billed === true,
  };
  if (snapshot === null) {
    return { ...base, median: null, rate_count: 0, provider_count: 0, ...noDistribution(), failed_rows: 0, rows: [], sources: [], other_rows: 0 };
  }
  await Promise.all([ctx.rates.ensure([p.service_id]), ctx.providerGroups.ensureMonths([month]), p.billed === true ? ctx.billingProviders() : undefined]);
  const clsCond = unit !== null
    ? sql`AND r.billing_class = ${cls} AND r.component = ${unit.component} AND r.unit_setting = ${unit.setting}`
    : cls === 'all' ? sql`` : sql`AND (r.billing_class = ${cls} OR r.billing_class = 'both')`;
  const stateCond = p.state === undefined ? sql`` : sql`AND pr.state = ${p.state}`;
  const provCond = p.providers === undefined ? sql`` : sql`AND g.provider_id IN (${p.providers})`;
  const shared = sharedSql(p, ctx, month);
  const billed = billedRowCond(p.billed === true);
  const price = priceRowSql('r');
  const order = priceRowOrder('x');
  // The rows of every insurer's snapshot at M at once, kept (ctx.memo) and filtered here: the rate
  // rows dialog asks for each insurer of a price in turn, and each statement costs about the same
  // whatever the insurers it keeps (the code's rows joined to the month's provider groups). At
  // shared providers the rows kept depend on the insurer asked (sharedSql): one statement each.
  const pairs = p.shared_providers === true
    ? [`${p.insurer_id}|${snapshot}`]
    : [...sourceSnapshots(manifest, month)].map(([id, s]) => `${id}|${s}`);
  const query = (): Array<Row & { dollar: boolean }> => ctx.db.all<Row & { dollar: boolean }>(sql`
    WITH ${shared.cte}x AS (
      SELECT r.insurer_id, g.provider_id, r.billing_code, coalesce(any_value(pr.name), g.provider_id) AS provider_name, any_value(pr.npi) AS npi,
        any_value(pr.state) AS provider_state, ${price.select},
        list(DISTINCT r.source_id ORDER BY r.source_id) AS source_ids,
        (${new SqlFragment(dollarRateSql('r.negotiated_type', 'r.negotiated_rate'), [])}) AS dollar,
        any_value(r.component) AS component, any_value(r.unit_setting) AS unit_setting,
        ${VALIDATION_RANK_SQL}, max(r.medicare_rate) AS medicare_rate
      FROM (SELECT r.*, ${ROW_UNIT_SQL} FROM rates r) r
      JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
      LEFT JOIN providers pr ON pr.provider_id = g.provider_id
      WHERE r.billing_code = ${p.service_id} AND (r.insurer_id || '|' || r.snapshot) IN (${pairs})
        ${clsCond} ${stateCond} ${provCond} ${shared.cond} ${billed}
      GROUP BY r.insurer_id, g.provider_id, r.billing_code, ${price.groupBy}
    )
    SELECT x.insurer_id, x.provider_id, x.provider_name, x.npi, x.provider_state, ${priceRowColumns('x')}, x.source_ids, x.dollar, x.component,
      x.unit_setting, x.validation_rank, ${MEDICARE_COLUMNS_SQL}
    FROM x ${MEDICARE_JOIN_SQL}
    ORDER BY ${order.rate}, x.provider_id, ${order.rest}, x.insurer_id`);
  const every = p.shared_providers === true
    ? query()
    : ctx.memo.get(`rate rows of every insurer ${JSON.stringify([p.service_id, month, cls, unit, p.state ?? null, p.providers ?? null, p.billed === true])}`, query, (r) => r.length);
  const rows = every.filter((r) => r.insurer_id === p.insurer_id);
  const dollars = rows.filter((r) => r.dollar);
  const valid = dollars.filter((r) => r.validation_rank === null);
  const counts = new Map<number, number>();
  for (const r of dollars) for (const id of r.source_ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const sources: RateRowSource[] = [...counts].sort((a, b) => a[0] - b[0]).map(([id, n]) => {
    const s = manifest.sources[id];
    return {
      source_id: id, url: s?.url ?? '', reporting_entity_name: s?.reporting_entity_name ?? '',
      last_updated_on: s?.last_updated_on ?? '', snapshot: s?.snapshot ?? snapshot, rows: n,
    };
  });
  const cf = manifest.medicare?.conversion_factor;
  const median = medianOf(valid.map((r) => r.negotiated_rate));
  const providerCount = new Set(valid.map((r) => r.provider_id)).size;
  return {
    ...base,
    median,
    rate_count: valid.length,
    provider_count: providerCount,
    ...distributionOf(valid, median, providerCount, unit !== null),
    failed_rows: dollars.length - valid.length,
    rows: dollars.map((r): RateRowRecord => ({
      provider_id: r.provider_id,
      provider_name: r.provider_name,
      npi: r.npi,
      provider_state: r.provider_state,
      ...ratePriceFields(r),
      source_ids: r.source_ids,
      component: r.component,
      setting: r.unit_setting,
      ...medicareAt(r.negotiated_rate, r, cf),
      validation: validationOf(r.validation_rank),
    })),
    sources,
    other_rows: rows.length - dollars.length,
  };
}

/** The distribution fields of a result without a valid row. */
const noDistribution = (): Pick<RateRowsResult, 'p10' | 'p25' | 'p75' | 'p90' | 'derived' | 'confidence' | 'confidence_reasons'> =>
  ({ p10: null, p25: null, p75: null, p90: null, derived: false, confidence: null, confidence_reasons: [] });

/**
 * The distribution and confidence of the price of `valid` rows (docs/methodology.md, Confidence and
 * distribution; contract/rules/confidence.ts): p10 .. p90 of the provider medians, whether a row is
 * `derived`, and the confidence from the support, that spread, the % of Medicare (the median
 * against the unit's national amount, as the screens show it; only for one unit, `oneUnit`) and
 * the derived rows.
 */
function distributionOf(valid: readonly Row[], median: number | null, providers: number, oneUnit: boolean): Pick<RateRowsResult,
  'p10' | 'p25' | 'p75' | 'p90' | 'derived' | 'confidence' | 'confidence_reasons'> {
  if (valid.length === 0 || median === null) return noDistribution();
  const dist = providerDistribution(valid.map((r) => ({ provider: r.provider_id, rate: r.negotiated_rate })));
  const derived = valid.some((r) => r.negotiated_type === 'derived');
  const medicareRate = oneUnit ? valid.find((r) => r.medicare_rate !== null)?.medicare_rate ?? null : null;
  const { confidence, reasons } = priceConfidence({ providers, p10: dist.p10, p90: dist.p90, medicarePct: medicarePct(median, medicareRate), derived });
  return { ...dist, derived, confidence, confidence_reasons: reasons };
}

/** The price fields of a record (contract/files/price-columns.ts `api`) from its row's price columns. */
function ratePriceFields(r: Row): RateRowPriceFields {
  const out: Record<string, unknown> = {};
  for (const c of RATE_ROW_PRICE_COLUMNS) out[c.api] = r[c.name];
  return out as RateRowPriceFields;
}

export const rateRows: Endpoint<'GET /api/rate-rows'> = { route: 'GET /api/rate-rows', parse, run };
