/**
 * A local HTTP server for converter tests (127.0.0.1, port 0): each route answers with a handler;
 * every request is counted by path (query string excluded) and the peak of concurrent requests
 * kept. `close()` drops open connections, so a deliberately slow route never outlives the test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface LocalHttp {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Requests seen per path (without query string). */
  hits: Map<string, number>;
  /** Most requests in flight at once. */
  peak: number;
  close(): Promise<void>;
}

/** Starts a server answering `routes` (by path without query), 404 elsewhere. */
export async function startLocalHttp(routes: Record<string, Route>): Promise<LocalHttp> {
  const hits = new Map<string, number>();
  let inFlight = 0;
  const state = { peak: 0 };
  const server = createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0]!;
    const hit = (hits.get(p) ?? 0) + 1;
    hits.set(p, hit);
    inFlight++;
    state.peak = Math.max(state.peak, inFlight);
    res.on('close', () => inFlight--);
    const route = routes[p];
    if (route) route(req, res, hit);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    get peak() {
      return state.peak;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A route answering JSON `body` with status 200. */
export const json = (body: unknown): Route => (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/**
 * A fetch that fails at once as Node's does when the DNS lookup fails with `code` (default
 * `ENOTFOUND`, a host name that does not exist; `EAI_AGAIN`, a resolver that cannot answer now),
 * counting its calls (no DNS is asked).
 */
export function failingFetch(code = 'ENOTFOUND'): { fetch: (url: string) => Promise<Response>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (url: string) => {
      calls.push(url);
      return Promise.reject(new TypeError('fetch failed', { cause: { code } }));
    },
  };
}
