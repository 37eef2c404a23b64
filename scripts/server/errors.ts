/**
 * JSON error bodies of the server, in the one grammar of the /api (docs/architecture.md):
 * `{ "message": "...", "error": { "code": "...", "message": "..." } }`.
 */
import type { FastifyReply } from 'fastify';
import type { ApiErrorCode } from '../../contract/api';

/** The worker's codes plus the two only the server produces. */
export type ServerErrorCode = ApiErrorCode | 'forbidden' | 'not_implemented' | 'range_not_satisfiable';

/** Body of a server error answer. */
export interface ServerErrorBody {
  message: string;
  error: { code: ServerErrorCode; message: string };
}

/** Builds the error body for `message` with `code`. */
export function errorBody(code: ServerErrorCode, message: string): ServerErrorBody {
  return { message, error: { code, message } };
}

/** Sends `status` with an error body; returns the reply (for `return sendError(...)` in handlers). */
export function sendError(reply: FastifyReply, status: number, code: ServerErrorCode, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(code, message));
}

/** Maps an HTTP status to the error code of its body. */
export function codeForStatus(status: number): ServerErrorCode {
  if (status === 404) return 'not_found';
  if (status === 403) return 'forbidden';
  if (status === 401) return 'unauthorized';
  if (status === 416) return 'range_not_satisfiable';
  if (status === 501) return 'not_implemented';
  if (status === 503) return 'unavailable';
  return status >= 500 ? 'internal' : 'bad_request';
}
