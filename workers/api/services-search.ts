/**
 * `GET /api/services-search[?q][&limit]`: the services (CPT/HCPCS billing codes, docs/methodology.md
 * Rows that count) matching a typed text, for the live search's Service Name autocomplete, so the
 * page never holds the whole list (a real dataset has about 17,000 services). Matching follows the
 * product spec (section 5, search matching): `q`, trimmed, is a case-insensitive substring of the
 * name, the billing code, the category, the description or the keywords of the `services` table.
 * Order: prefix matches (name or code starts with `q`) first, then by name (case-insensitive), then
 * by code. An absent or blank `q` lists the services by name. Answers one page (`limit`, default 10,
 * 1..100) and the number of matches in all. @throws ApiError 400 `invalid limit: <value>`
 */
import type { ServiceListItem, ServicesSearch } from '../../contract/api';
import { SERVICE_CODE_TYPES } from '../../contract/metrics';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';
import { parseSearch } from './params';

/** Page size when `limit` is absent (the autocomplete's 10 options), and the largest allowed. */
export const DEFAULT_SERVICES_LIMIT = 10;
export const MAX_SERVICES_LIMIT = 100;

export const servicesSearch: Endpoint<'GET /api/services-search'> = {
  route: 'GET /api/services-search',
  parse: (query) => parseSearch(query, MAX_SERVICES_LIMIT),
  run(params, { db }): ServicesSearch {
    const q = params.q ?? '';
    // contains(x, '') and starts_with(x, '') are true: an empty q keeps every service, all "prefix".
    const rows = db.all<ServiceListItem & { total: number; [k: string]: string | number | null }>(sql`
      WITH matched AS (
        SELECT billing_code AS id, coalesce(name, billing_code) AS name, billing_code_type, category,
          (starts_with(lower(coalesce(name, '')), ${q}) OR starts_with(lower(billing_code), ${q})) AS prefix
        FROM services
        WHERE billing_code_type IN (${SERVICE_CODE_TYPES})
          AND (contains(lower(coalesce(name, '')), ${q}) OR contains(lower(billing_code), ${q})
            OR contains(lower(coalesce(category, '')), ${q}) OR contains(lower(coalesce(description, '')), ${q})
            OR contains(lower(coalesce(keywords, '')), ${q}))
      )
      SELECT id, name, billing_code_type, category, (count(*) OVER ())::INTEGER AS total FROM matched
      ORDER BY prefix DESC, lower(name), name, id
      LIMIT ${params.limit ?? DEFAULT_SERVICES_LIMIT}`);
    return {
      items: rows.map(({ id, name, billing_code_type, category }) => ({ id, name, billing_code_type, category })),
      total: rows[0]?.total ?? 0,
    };
  },
};
