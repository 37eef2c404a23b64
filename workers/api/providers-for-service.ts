/**
 * `GET /api/providers-for-service?service_id[&q][&limit]`: every provider with any rate row (dollar
 * or not) for the service in its insurer's latest snapshot (docs/methodology.md, Names and categories), for
 * typing ahead: `q` matches name or id case-insensitively (substring); prefix matches first, then by
 * name. The service's rate rows load on demand by billing code.
 */
import type { ProvidersForService, ProviderListItem } from '../../contract/api';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';
import { parseSearch } from './params';
import { latestSnapshot } from './pricing-core';
import { parseServiceId } from './service-code';
import { chosenRows } from './snapshots';

/** Page size when `limit` is absent, and the largest allowed. */
export const DEFAULT_PROVIDER_LIMIT = 100;
export const MAX_PROVIDER_LIMIT = 10_000;

export const providersForService: Endpoint<'GET /api/providers-for-service'> = {
  route: 'GET /api/providers-for-service',
  parse: (query, ctx) => ({ service_id: parseServiceId(query, ctx), ...parseSearch(query, MAX_PROVIDER_LIMIT) }),
  async run(params, ctx): Promise<ProvidersForService> {
    await ctx.rates.ensure([params.service_id]);
    const q = params.q ?? '';
    const rows = ctx.db.all<ProviderListItem & { total: number; [k: string]: string | number | null }>(sql`
      WITH found AS (
        SELECT DISTINCT g.provider_id FROM rates r
        JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
        WHERE r.billing_code = ${params.service_id} AND ${chosenRows(ctx.manifest, latestSnapshot(ctx), 'r')}
      ), matched AS (
        SELECT f.provider_id AS id, coalesce(p.name, f.provider_id) AS name, p.npi, p.state,
          (starts_with(lower(coalesce(p.name, '')), ${q}) OR starts_with(lower(f.provider_id), ${q})) AS prefix
        FROM found f LEFT JOIN providers p ON p.provider_id = f.provider_id
        WHERE contains(lower(coalesce(p.name, '')), ${q}) OR contains(lower(f.provider_id), ${q})
      )
      SELECT id, name, npi, state, (count(*) OVER ())::INTEGER AS total FROM matched
      ORDER BY prefix DESC, lower(name), id
      LIMIT ${params.limit ?? DEFAULT_PROVIDER_LIMIT}`);
    return {
      items: rows.map(({ id, name, npi, state }) => ({ id, name, npi, state })),
      total: rows[0]?.total ?? 0,
    };
  },
};
