/**
 * `GET /api/providers[?q][&limit]`: the providers of the whole dataset (the `providers` table, loaded
 * at boot), for the comparison screen's provider search and chips, through the shared type-ahead
 * SQL (workers/api/type-ahead-sql.ts, the product spec's search matching). `q` matches the name or
 * the id (NPI or `TIN:<tin>`) case-insensitively as a substring; prefix matches first, then by name
 * (case-insensitive), then by id. Answers one page (`limit`, default 10, 1..1000) and the total of
 * matches (without `q`: every provider). @throws ApiError 400 `invalid limit: <value>`
 */
import type { ProviderSearchItem, ProviderSearchResult } from '../../contract/api';
import { sql } from '../db/sql';
import type { Endpoint } from './endpoint';
import { parseSearch } from './params';
import { typeAheadSql } from './type-ahead-sql';

/** Page size when `limit` is absent, and the largest allowed. */
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 1000;

export const providers: Endpoint<'GET /api/providers'> = {
  route: 'GET /api/providers',
  reads: ['providers'],
  parse: (query) => parseSearch(query, MAX_SEARCH_LIMIT),
  run(params, { db }): ProviderSearchResult {
    const search = typeAheadSql<ProviderSearchItem>({
      from: sql`providers`,
      id: sql`provider_id`,
      name: sql`name`,
      columns: { npi: sql`npi`, state: sql`state` },
      ties: 'id',
      q: params.q,
      limit: params.limit ?? DEFAULT_SEARCH_LIMIT,
    });
    return search.page(db.all(search.query));
  },
};
