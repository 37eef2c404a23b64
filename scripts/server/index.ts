/**
 * The Compete server (docs/deployment.md, The server): serves the built app, the dataset and the auth endpoints,
 * nothing else. Built on fastify 5 + @fastify/static (its `@fastify/send` does ETag, Range and
 * traversal checks), @fastify/cookie and @fastify/compress.
 *
 * - `/`            the app from `distDir`; unknown non-/api, non-/data GET paths fall back to
 *                  index.html (client-side routes); `/assets/*` (Vite's content-hashed files)
 *                  are cached for a year, everything else revalidates (`no-cache` + ETag).
 *                  Text, JSON, JavaScript and WebAssembly are compressed (br, gzip) when asked:
 *                  from a precompressed sibling (`x.wasm.br`) when the build wrote one, else on
 *                  the fly (brotli quality 4: about 0.35 s of CPU for DuckDB's 39 MB .wasm).
 * - `/data/*`      the dataset directory, only to a signed-in session (session.ts; 401 otherwise),
 *                  byte ranges (`Accept-Ranges: bytes`, 206, 416; a suffix longer than the file
 *                  selects all of it, suffix-range.ts), ETag, `private, no-cache`,
 *                  never compressed (Parquet is compressed inside; ranges must address file bytes).
 * - `/api/auth/*`  see auth-routes.ts; any other `/api/...` is 404 JSON.
 * Every response carries the security headers of security-headers.ts, errors included: each
 * response object gets them when it is created, and a request node's parser refuses gets them in
 * its raw answer (early-answers.ts); the onSend hook adds HSTS over HTTPS.
 */
import { resolve, sep } from 'node:path';
import { stat } from 'node:fs/promises';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { describeAuth, readAuthConfig } from './auth-config';
import { registerAuthRoutes } from './auth-routes';
import { answerClientError, SecuredResponse } from './early-answers';
import { codeForStatus, errorBody, sendError } from './errors';
import { COMPRESSIBLE_TYPES, DATA_CACHE, HSTS, IMMUTABLE_CACHE, REVALIDATE_CACHE } from './security-headers';
import { RevokedTokens } from './revocations';
import { requireSession } from './session';
import { fitSuffixRange } from './suffix-range';

export interface StartServerOptions {
  /** Directory of the built app (Vite's `dist/`), holding index.html. */
  distDir: string;
  /** Dataset directory (manifest.json + Parquet), served under /data/. */
  dataDir: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Where log lines go; default console.log. */
  log?: (line: string) => void;
  /** Environment the sign-in settings are read from (auth-config.ts); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface RunningServer {
  /** Base URL ending in '/', e.g. `http://127.0.0.1:8080/`. */
  url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * Starts the server. Throws when `distDir` or `dataDir` is not a directory, a sign-in setting is
 * malformed (auth-config.ts), or the port is taken (the listen error, e.g. EADDRINUSE).
 */
export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const distDir = resolve(opts.distDir);
  const dataDir = resolve(opts.dataDir);
  await assertDirectory(distDir, 'distDir');
  await assertDirectory(dataDir, 'dataDir');
  const log = opts.log ?? ((line: string) => console.log(line));
  const auth = readAuthConfig(opts.env ?? process.env);

  const hops = auth.trustProxy;
  const trustProxy = typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops;
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    trustProxy,
    // Every response object carries the security headers from its creation, answers given before
    // any route or hook runs included; a request node's parser refused gets them too (early-answers.ts).
    http: { ServerResponse: SecuredResponse },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => {
      hsts(request, reply);
      answerError(error, reply);
    },
  });
  decorate(app);
  await app.register(fastifyCookie);
  // Before @fastify/compress's own onRoute hook: the dataset's routes opt out of compression.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/data/')) route.compress = false;
  });
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], customTypes: COMPRESSIBLE_TYPES, threshold: 1024 });
  // the tokens logged out, in this process's memory (revocations.ts)
  const revoked = new RevokedTokens();
  registerAuthRoutes(app, auth, log, revoked);
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    // A `<file>.br` / `<file>.gz` written by the build next to a file is sent as is (no CPU per request).
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      const hashed = filePath.startsWith(`${distDir}${sep}assets${sep}`);
      res.setHeader('cache-control', hashed ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
    },
  });
  await app.register(async (data) => {
    data.addHook('onRequest', requireSession(auth, revoked));
    data.addHook('preHandler', fitSuffixRange(dataDir, '/data/'));
    await data.register(fastifyStatic, {
      root: dataDir,
      prefix: '/data/',
      decorateReply: false,
      index: false,
      acceptRanges: true,
      etag: true,
      cacheControl: false,
      setHeaders: (res) => res.setHeader('cache-control', DATA_CACHE),
    });
  });
  registerFallbacks(app);

  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  describeAuth(auth).forEach((line) => log(line));
  return { url: `http://${displayHost(host)}:${port}/`, close: () => app.close() };
}

/** HSTS over HTTPS; `.wasm` typed for streaming compilation; uniform errors. */
function decorate(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    hsts(request, reply);
    if (request.url.split('?')[0]?.endsWith('.wasm') && reply.statusCode < 300) {
      reply.header('content-type', 'application/wasm');
    }
    return payload;
  });
  app.setErrorHandler((error: FastifyError & { headers?: Record<string, string> }, _request, reply) =>
    answerError(error, reply));
}

/** HSTS on a request that came over HTTPS (the other security headers: SecuredResponse). */
function hsts(request: FastifyRequest, reply: FastifyReply): void {
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
}

/** Answers `error` with its status (500 when it has none) and the uniform JSON body; no details of a 5xx. */
function answerError(error: FastifyError & { headers?: Record<string, string> }, reply: FastifyReply): FastifyReply {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (error.headers) reply.headers(error.headers);
  const message = status >= 500 ? 'internal server error' : error.message;
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(codeForStatus(status), message));
}

/**
 * 404s: JSON under /api, /data and /assets and for a missing file (a last segment with an
 * extension, e.g. /favicon.ico); the SPA's index.html for any other GET/HEAD path.
 */
function registerFallbacks(app: FastifyInstance): void {
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isFileArea = /^\/(api|data|assets)(\/|$)/.test(path) || /\.[A-Za-z0-9]+$/.test(path);
    if (isFileArea || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(reply, 404, 'not_found', `not found: ${request.method} ${path}`);
    }
    reply.header('cache-control', REVALIDATE_CACHE);
    return reply.sendFile('index.html', { cacheControl: false });
  });
}

async function assertDirectory(dir: string, name: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`${name} is not a directory: ${dir}`);
}

/** A wildcard listen address is shown as the loopback address a browser can open. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
