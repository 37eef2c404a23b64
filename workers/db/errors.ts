/**
 * Errors of the worker's data layer. Both carry a one-line reason that reaches the page as data
 * (a BootState reason or a 500 body), never a stack.
 */

/** DuckDB refused a statement or a load; the message is DuckDB's, prefixed by what we were doing. */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

/** A dataset file could not be read; `httpStatus` is set when an HTTP server answered non-2xx. */
export class SourceError extends Error {
  override name = 'SourceError';
  constructor(
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}
