/**
 * The error `apiGet` throws for a failed /api call (architecture.md, Style: errors reach the page as
 * a JSON body `{ message, error: { code, message } }` with the HTTP status).
 */
export class ApiError extends Error {
  /** HTTP status; 0 when the request never got an answer (network error). */
  readonly status: number;
  /** The parsed JSON body, or null when there was none or it was not JSON. */
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/**
 * The message of an error body (product-spec §7): the body's `message` when it is a non-empty
 * string, else 'Request failed'.
 */
export function messageOf(body: unknown): string {
  if (body && typeof body === 'object' && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return 'Request failed';
}
