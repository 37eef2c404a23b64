/** The shape of one /api endpoint file: its route, parameter parser and handler. */
import type { Api, ApiRequest, ApiRoute } from '../../contract/api';
import type { TableName } from '../../contract/files/dataset';
import type { ApiContext } from '../context';
import type { StatsNeed } from '../db/stats';

export interface Endpoint<R extends ApiRoute> {
  route: R;
  /**
   * Parses the query string's values (path parameters such as `{id}` arrive as `query.id`).
   * @throws ApiError 400 `invalid <name>: <value>`
   */
  parse(query: Readonly<Record<string, string>>, ctx: ApiContext): Api[R]['params'];
  /**
   * Computes the result; may load rate rows first (async). `request` carries the signed-in user.
   * @throws ApiError, DatabaseError, SourceError (answered 500, or 401 when the server refused a read)
   */
  run(params: Api[R]['params'], ctx: ApiContext, request: ApiRequest): Api[R]['result'] | Promise<Api[R]['result']>;
  /**
   * `first-tables`: the endpoint reads only the manifest and the first tables (`services`,
   * `claims_volume`, `price_stats`, their derived tables; workers/data-service.ts FIRST_TABLES), so
   * it answers while the others load; a function says it per request (`every-table` when these
   * parameters read a provider table); a list names the later tables it reads, the first ones
   * aside (dispatch waits for those only). Otherwise dispatch waits for every boot table.
   */
  reads?: 'first-tables' | readonly TableName[] | ((params: Api[R]['params'], ctx: ApiContext) => 'first-tables' | 'every-table');
  /**
   * What the answer reads of `price_stats` (pricing-core.ts statsNeedOf): months, scope, national
   * or per-state rows; dispatch loads it first (db/stats.ts). Absent or null: the endpoint reads no
   * price_stats row, and pricing-core refuses to price rows that are not loaded.
   */
  stats?(params: Api[R]['params'], ctx: ApiContext): StatsNeed | null;
  /**
   * The answer depends only on the dataset and the parsed parameters (no acknowledgement, no user):
   * dispatch keeps it in `ctx.memo`, one entry per parameter set.
   */
  pure?: true;
}
