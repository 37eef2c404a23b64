/**
 * `GET /api/services-search[?q][&limit]`: the services (CPT/HCPCS billing codes, docs/methodology.md
 * Rows that count) matching a typed text, for the live search's Service Name autocomplete and the
 * live comparison's search, so the page never holds the whole list (a real dataset has about 17,000
 * services). Matching follows the product spec (section 5, search matching) through the shared
 * type-ahead SQL (workers/api/type-ahead-sql.ts): `q`, trimmed, is a case-insensitive substring of
 * the name, the billing code, the category, the description or the keywords of the `services`
 * table. Order: prefix matches (name or code starts with `q`) first, then by name
 * (case-insensitive), then by name as is, then by code. An absent or blank `q` lists the services
 * by name (its `total`, with `limit=1`, is the number of services). Answers one page (`limit`,
 * default 10, 1..100) and the number of matches in all. @throws ApiError 400 `invalid limit: <value>`
 */
import type { ServiceListItem, ServicesSearch } from '../../contract/api';
import { SERVICE_CODE_TYPES } from '../../contract/rules/metrics';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';
import { parseSearch } from './params';
import { typeAheadSql } from './type-ahead-sql';

/** Page size when `limit` is absent (the autocomplete's 10 options), and the largest allowed. */
export const DEFAULT_SERVICES_LIMIT = 10;
export const MAX_SERVICES_LIMIT = 100;

export const servicesSearch: Endpoint<'GET /api/services-search'> = {
  route: 'GET /api/services-search',
  reads: 'first-tables',
  parse: (query) => parseSearch(query, MAX_SERVICES_LIMIT),
  run(params, { db }): ServicesSearch {
    const search = typeAheadSql<ServiceListItem>({
      from: sql`services`,
      where: sql`billing_code_type IN (${SERVICE_CODE_TYPES})`,
      id: sql`billing_code`,
      name: sql`name`,
      columns: { billing_code_type: sql`billing_code_type`, category: sql`category` },
      searched: [sql`category`, sql`description`, sql`keywords`],
      ties: 'name-then-id',
      q: params.q,
      limit: params.limit ?? DEFAULT_SERVICES_LIMIT,
    });
    return search.page(db.all(search.query));
  },
};
