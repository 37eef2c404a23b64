/**
 * `GET /api/providers-for-service?service_id[&q][&limit]`: every provider with any rate row (dollar
 * or not) for the service in its insurer's latest snapshot (docs/methodology.md, Names and categories), for
 * typing ahead through the shared type-ahead SQL (workers/api/type-ahead-sql.ts, the product spec's
 * search matching): `q` matches name or id case-insensitively (substring); prefix matches first,
 * then by name (case-insensitive), then by id. Answers one page (`limit`, default 100, 1..10,000)
 * and the total of matches. The service's rate rows load on demand by billing code, the latest month's
 * provider groups by source (db/provider-groups.ts).
 */
import type { ProvidersForService, ProviderListItem } from '../../contract/api';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';
import { parseSearch } from './params';
import { latestSnapshot } from '../pricing/pricing-core';
import { parseServiceId } from './service-code';
import { chosenRows } from '../pricing/snapshots';
import { typeAheadSql } from './type-ahead-sql';

/** Page size when `limit` is absent, and the largest allowed. */
export const DEFAULT_PROVIDER_LIMIT = 100;
export const MAX_PROVIDER_LIMIT = 10_000;

export const providersForService: Endpoint<'GET /api/providers-for-service'> = {
  route: 'GET /api/providers-for-service',
  // provider_groups: loaded by source here, or whole behind the first tables (db/provider-groups.ts)
  reads: ['providers', 'provider_groups'],
  parse: (query, ctx) => ({ service_id: parseServiceId(query, ctx), ...parseSearch(query, MAX_PROVIDER_LIMIT) }),
  async run(params, ctx): Promise<ProvidersForService> {
    const month = latestSnapshot(ctx);
    await Promise.all([ctx.rates.ensure([params.service_id]), ctx.providerGroups.ensureMonths([month])]);
    const search = typeAheadSql<ProviderListItem>({
      with: sql`found AS (
        SELECT DISTINCT g.provider_id FROM rates r
        JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
        WHERE r.billing_code = ${params.service_id} AND ${chosenRows(ctx.manifest, month, 'r')}
      )`,
      from: sql`found f LEFT JOIN providers p ON p.provider_id = f.provider_id`,
      id: sql`f.provider_id`,
      name: sql`p.name`,
      columns: { npi: sql`p.npi`, state: sql`p.state` },
      ties: 'id',
      q: params.q,
      limit: params.limit ?? DEFAULT_PROVIDER_LIMIT,
    });
    return search.page(ctx.db.all(search.query));
  },
};
