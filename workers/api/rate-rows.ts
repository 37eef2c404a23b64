/**
 * `GET /api/rate-rows?service_id&insurer_id[&billing_class][&state][&snapshot][&providers]`: the
 * rate rows behind one median of the live screens, so any price can be traced to its files.
 *
 * The rows are those metrics.md ("Rows that count", "Per service") puts into `price(s, i)`: the
 * insurer's rate rows for the code in its latest snapshot at or before month M, with a resolved
 * provider, negotiated type `negotiated`/`fee schedule`/`derived` and rate > 0, narrowed by billing
 * class (a `both` row passes either) and the provider's state; identical rows (same provider,
 * class, type, rate, place of service, modifiers) count once, whichever files publish them, and a
 * group of several NPIs gives one row per NPI. The code's row groups load on demand (workers/db/rates.ts).
 */
import { BILLING_CLASS_FILTERS, type RateRowRecord, type RateRowSource, type RateRowsParams, type RateRowsResult } from '../../contract/api';
import { DOLLAR_NEGOTIATED_TYPES } from '../../contract/metrics';
import { sql } from '../db/sql';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { invalidParam } from './errors';
import { optional, parseOneOf, parseProviderIds, parseSnapshot, parseStateCode, required } from './params';
import { latestSnapshot } from './pricing-core';
import { parseServiceId, serviceName } from './service-code';
import { chosenSnapshots } from './snapshots';

function parse(query: Readonly<Record<string, string>>, ctx: ApiContext): RateRowsParams {
  const p: RateRowsParams = { service_id: parseServiceId(query, ctx), insurer_id: required(query, 'insurer_id') };
  if (!ctx.manifest.insurers.some((i) => i.id === p.insurer_id)) throw invalidParam('insurer_id', p.insurer_id);
  const cls = optional(query, 'billing_class');
  if (cls !== undefined) p.billing_class = parseOneOf('billing_class', cls, BILLING_CLASS_FILTERS);
  const state = optional(query, 'state');
  if (state !== undefined) p.state = parseStateCode('state', state);
  Object.assign(p, parseSnapshot(query, ctx.manifest.snapshots));
  const providers = parseProviderIds(query);
  if (providers) p.providers = providers;
  return p;
}

type Row = Omit<RateRowRecord, 'source_ids'> & { source_ids: number[]; dollar: boolean; [k: string]: string | number | boolean | null | number[] };

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
  const snapshot = chosenSnapshots(manifest, month).get(p.insurer_id) ?? null;
  const cls = p.billing_class ?? 'all';
  const insurer = manifest.insurers.find((i) => i.id === p.insurer_id)!;
  const base = {
    service_code: p.service_id, service_name: serviceName(ctx, p.service_id), insurer_id: p.insurer_id,
    insurer_name: insurer.name, month, snapshot, billing_class: cls, state: p.state ?? null,
  };
  if (snapshot === null) return { ...base, median: null, rate_count: 0, provider_count: 0, rows: [], sources: [], other_rows: 0 };
  await ctx.rates.ensure([p.service_id]);
  const clsCond = cls === 'all' ? sql`` : sql`AND (r.billing_class = ${cls} OR r.billing_class = 'both')`;
  const stateCond = p.state === undefined ? sql`` : sql`AND pr.state = ${p.state}`;
  const provCond = p.providers === undefined ? sql`` : sql`AND g.provider_id IN (${p.providers})`;
  const rows = ctx.db.all<Row>(sql`
    SELECT g.provider_id, coalesce(any_value(pr.name), g.provider_id) AS provider_name, any_value(pr.npi) AS npi,
      any_value(pr.state) AS provider_state, r.negotiated_rate::DOUBLE AS negotiated_rate,
      lower(r.negotiated_type) AS negotiated_type, r.billing_class, coalesce(r.service_codes, '') AS service_codes,
      coalesce(r.modifiers, '') AS modifiers, min(r.expiration_date) AS expiration_date,
      list(DISTINCT r.source_id ORDER BY r.source_id) AS source_ids,
      (lower(r.negotiated_type) IN (${DOLLAR_NEGOTIATED_TYPES}) AND r.negotiated_rate > 0) AS dollar
    FROM rates r
    JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
    LEFT JOIN providers pr ON pr.provider_id = g.provider_id
    WHERE r.billing_code = ${p.service_id} AND r.insurer_id = ${p.insurer_id} AND r.snapshot = ${snapshot}
      ${clsCond} ${stateCond} ${provCond}
    GROUP BY g.provider_id, r.negotiated_rate, lower(r.negotiated_type), r.billing_class, coalesce(r.service_codes, ''), coalesce(r.modifiers, '')
    ORDER BY r.negotiated_rate, g.provider_id, r.billing_class, service_codes, modifiers`);
  const dollars = rows.filter((r) => r.dollar);
  const counts = new Map<number, number>();
  for (const r of dollars) for (const id of r.source_ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const sources: RateRowSource[] = [...counts].sort((a, b) => a[0] - b[0]).map(([id, n]) => {
    const s = manifest.sources[id];
    return {
      source_id: id, url: s?.url ?? '', reporting_entity_name: s?.reporting_entity_name ?? '',
      last_updated_on: s?.last_updated_on ?? '', snapshot: s?.snapshot ?? snapshot, rows: n,
    };
  });
  return {
    ...base,
    median: medianOf(dollars.map((r) => r.negotiated_rate)),
    rate_count: dollars.length,
    provider_count: new Set(dollars.map((r) => r.provider_id)).size,
    rows: dollars.map(({ dollar: _d, ...r }) => r),
    sources,
    other_rows: rows.length - dollars.length,
  };
}

export const rateRows: Endpoint<'GET /api/rate-rows'> = { route: 'GET /api/rate-rows', parse, run };
