/**
 * `GET /api/service-names`: every service (CPT/HCPCS billing code, docs/methodology.md Rows that count) as a
 * live-search list item, by billing code; from the `services` table.
 */
import type { ServiceListItem } from '../../contract/api';
import { SERVICE_CODE_TYPES } from '../../contract/rules/metrics';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';

export const serviceNames: Endpoint<'GET /api/service-names'> = {
  route: 'GET /api/service-names',
  pure: true,
  reads: 'first-tables',
  parse: () => ({}),
  run: (_params, { db }) =>
    db.all<ServiceListItem & Record<string, string>>(sql`
      SELECT billing_code AS id, name, billing_code_type, category FROM services
      WHERE billing_code_type IN (${SERVICE_CODE_TYPES}) ORDER BY billing_code`),
};
