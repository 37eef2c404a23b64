/**
 * `GET /api/providers[?q][&limit]`: the providers of the whole dataset (the `providers` table, loaded
 * at boot), for the comparison screen's provider search and chips. `q` matches the name or the id
 * (NPI or `TIN:<tin>`) case-insensitively as a substring; prefix matches first, then by name
 * Answers one page and the total of matches.
 */
import type { ProviderSearchItem, ProviderSearchResult } from '../../contract/api';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';
import { parseSearch } from './params';

/** Page size when `limit` is absent, and the largest allowed. */
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 1000;

export const providers: Endpoint<'GET /api/providers'> = {
  route: 'GET /api/providers',
  parse: (query) => parseSearch(query, MAX_SEARCH_LIMIT),
  run(params, { db }): ProviderSearchResult {
    const q = params.q ?? '';
    const rows = db.all<ProviderSearchItem & { total: number; [k: string]: string | number | null }>(sql`
      WITH matched AS (
        SELECT provider_id AS id, coalesce(name, provider_id) AS name, npi, state,
          (starts_with(lower(coalesce(name, '')), ${q}) OR starts_with(lower(provider_id), ${q})) AS prefix
        FROM providers
        WHERE contains(lower(coalesce(name, '')), ${q}) OR contains(lower(provider_id), ${q})
      )
      SELECT id, name, npi, state, (count(*) OVER ())::INTEGER AS total FROM matched
      ORDER BY prefix DESC, lower(name), id
      LIMIT ${params.limit ?? DEFAULT_SEARCH_LIMIT}`);
    const total = rows[0]?.total ?? 0;
    return { items: rows.map(({ id, name, npi, state }) => ({ id, name, npi, state })), total };
  },
};
