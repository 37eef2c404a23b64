/**
 * Errors as the /api answers them: an HTTP status plus the body
 * `{ message, error: { code, message } }` (docs/architecture.md; contract/api/index.ts ApiErrorBody).
 */
import type { ApiErrorBody, ApiErrorCode, ApiResponse } from '../../contract/api';

/** An error a handler throws on purpose; `registry.dispatch` turns it into its response. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const MAX_ECHO = 120;

/** 400 with the one grammar of bad parameters: `invalid <name>: <value>` (value cut at 120 chars). */
export function invalidParam(name: string, value: string): ApiError {
  const shown = value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}...` : value;
  return new ApiError(400, 'bad_request', `invalid ${name}: ${shown}`);
}

/** The response of an error: status plus ApiErrorBody. */
export function errorResponse(status: number, code: ApiErrorCode, message: string): ApiResponse {
  const body: ApiErrorBody = { message, error: { code, message } };
  return { status, body };
}
