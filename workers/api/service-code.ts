/** The `service_id` parameter of the live-search endpoints: a billing code of the `services` table. */
import { sql } from '../db/sql';
import type { ApiContext } from '../context';
import { invalidParam } from './errors';
import { required } from './params';

/** The service's billing code. @throws ApiError 400 `invalid service_id: <value>` when absent or unknown. */
export function parseServiceId(query: Readonly<Record<string, string>>, { db }: ApiContext): string {
  const code = required(query, 'service_id');
  const rows = db.all<{ n: number }>(sql`SELECT 1 AS n FROM services WHERE billing_code = ${code}`);
  if (rows.length === 0) throw invalidParam('service_id', code);
  return code;
}

/** The service's name (docs/methodology.md, Names and categories); the code when unknown. */
export function serviceName({ db }: ApiContext, code: string): string {
  return db.all<{ name: string }>(sql`SELECT name FROM services WHERE billing_code = ${code}`)[0]?.name ?? code;
}
