/** The shape of one /api endpoint file: its route, parameter parser and handler. */
import type { Api, ApiRoute } from '../../contract/api';
import type { ApiContext } from './context';

export interface Endpoint<R extends ApiRoute> {
  route: R;
  /** Parses the query string's values. @throws ApiError 400 `invalid <name>: <value>` */
  parse(query: Readonly<Record<string, string>>, ctx: ApiContext): Api[R]['params'];
  /** Computes the result. @throws ApiError, DatabaseError (answered 500) */
  run(params: Api[R]['params'], ctx: ApiContext): Api[R]['result'];
}
