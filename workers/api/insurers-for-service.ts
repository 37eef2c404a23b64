/**
 * `GET /api/insurers-for-service?service_id`: every insurer with any rate row (dollar or not) for
 * the service in its latest snapshot (docs/methodology.md, Names and categories); the reference insurer
 * first, then by name. The service's rate rows load on demand by billing code.
 */
import { productLabel } from '../../contract/rules/product';
import type { InsurerListItem } from '../../contract/api';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';
import { latestSnapshot } from '../pricing/pricing-core';
import { parseServiceId } from './service-code';
import { chosenRows } from '../pricing/snapshots';

export const insurersForService: Endpoint<'GET /api/insurers-for-service'> = {
  route: 'GET /api/insurers-for-service',
  // the manifest, `services` (the id's check) and the rate rows, which load on demand
  reads: 'first-tables',
  pure: true,
  parse: (query, ctx) => ({ service_id: parseServiceId(query, ctx) }),
  async run(params, ctx): Promise<InsurerListItem[]> {
    await ctx.rates.ensure([params.service_id]);
    const ids = ctx.db
      .all<{ id: string }>(sql`
        SELECT DISTINCT r.insurer_id AS id FROM rates r
        WHERE r.billing_code = ${params.service_id} AND ${chosenRows(ctx.manifest, latestSnapshot(ctx), 'r')}`)
      .map((r) => r.id);
    const ref = ctx.manifest.reference_insurer;
    return ctx.manifest.insurers
      .filter((i) => ids.includes(i.id))
      .map((i) => ({ id: i.id, name: i.name, group: i.group ?? i.name }))
      // a company's products together: by 'Company · Product'
      .sort((a, b) => Number(b.id === ref) - Number(a.id === ref) || productLabel(a.group, a.name).localeCompare(productLabel(b.group, b.name), 'en'));
  },
};
