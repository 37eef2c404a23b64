/**
 * `GET /api/service-categories`: the distinct categories of the dataset's services (CPT/HCPCS
 * billing codes, docs/methodology.md Rows that count; `services.category`, names a services file
 * gave included), empty ones left out, by name (lower-cased, then as is). The live comparison's
 * category filter offers these (src/live/url-state/categories.ts sorts them by its own rule), so it
 * needs a few hundred bytes instead of every service of `GET /api/service-names`.
 */
import { SERVICE_CODE_TYPES } from '../../contract/rules/metrics';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';

export const serviceCategories: Endpoint<'GET /api/service-categories'> = {
  route: 'GET /api/service-categories',
  pure: true,
  reads: 'first-tables',
  parse: () => ({}),
  run: (_params, { db }) =>
    db.all<{ category: string }>(sql`
      SELECT DISTINCT category FROM services
      WHERE billing_code_type IN (${SERVICE_CODE_TYPES}) AND category IS NOT NULL AND category <> ''
      ORDER BY lower(category), category`).map((r) => r.category),
};
