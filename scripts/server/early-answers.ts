/**
 * The security headers on answers given outside fastify's routes and hooks, which never pass the
 * onSend hook that sets them (index.ts): node's own answers (400 for an HTTP/1.1 request without
 * Host, 417 for an unknown Expect), fastify's raw ones, and the answer to a request node's parser
 * refused (431 oversized header block, 400 garbled request, 408 timeout), written to the socket.
 */
import { ServerResponse, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { codeForStatus, errorBody } from './errors';
import { SECURITY_HEADERS } from './security-headers';

/**
 * node:http's response with the security headers set as it is created, so every answer that goes
 * through a response object carries them, whoever writes it; headers set later (onSend, writeHead)
 * still take precedence.
 */
export class SecuredResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  constructor(request: Request) {
    super(request);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) this.setHeader(name, value);
  }
}

/**
 * fastify's `clientErrorHandler` (its default, plus the security headers and the uniform error
 * body): answers once, then closes the connection. Writes nothing when the client is gone or an
 * answer on this connection has already begun (as node's own default), so no bytes land inside it.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request header fields too large']
        : [400, 'malformed HTTP request'];
  const body = JSON.stringify(errorBody(codeForStatus(status), message));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
  ];
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !current?.headersSent) socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  socket.destroy(error);
}
