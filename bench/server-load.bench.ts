/**
 * Benchmark (run by `npm run bench`): the server under load on loopback. Starts the real server
 * in a child process (so the load generator does not share its event loop) over a temporary app
 * (index.html, a 96 KB script) and dataset (manifest.json, a 16 MiB Parquet-named file), signs in
 * through the development sign-in to get a session cookie, then runs autocannon: 200 connections
 * for 20 s (`--duration <s>` to change), each cycling through the app page, the script
 * (gzip/br as a browser asks), the manifest, and Parquet-style range reads (the 8-byte footer
 * suffix, then 64 KiB row-group ranges at random offsets). Prints requests/s, bytes/s, latency
 * p50/p99/max, errors, timeouts and non-2xx answers; exits 1 when any request failed.
 * Only 127.0.0.1 is ever contacted; the child is stopped at the end.
 * Tiny mode (bench/tiny.ts): 10 connections for 1 s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startServer } from '../scripts/server/index';
import { numberArg, sized } from './tiny';

const PARQUET = '/data/rates/part-0.parquet';
const PARQUET_BYTES = 16 * 1024 * 1024;
const RANGE_BYTES = 64 * 1024;
const CONNECTIONS = sized(200, 10);
const DURATION_S = numberArg('--duration', sized(20, 1));

/** Child mode: serve `root`'s dist and data on 127.0.0.1:0 and send the URL to the parent. */
async function serve(root: string): Promise<void> {
  const server = await startServer({
    distDir: join(root, 'dist'), dataDir: join(root, 'data'), port: 0, host: '127.0.0.1', log: () => {},
    env: { NODE_ENV: 'development' },
  });
  process.send?.({ url: server.url });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
}

/** Writes the temporary app and dataset under a new directory; returns it. */
async function makeSite(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'compete-bench-server-'));
  await mkdir(join(root, 'dist/assets'), { recursive: true });
  await mkdir(join(root, 'data/rates'), { recursive: true });
  await writeFile(join(root, 'dist/index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-bench.js"></script></head><body><div id="root"></div></body></html>');
  // 96 KB of script-like text (compressible, as a bundle is).
  const line = 'export function f(a,b){return a.map((x)=>x*b).filter(Boolean)}\n';
  await writeFile(join(root, 'dist/assets/app-bench.js'), line.repeat(Math.ceil(96_000 / line.length)));
  await writeFile(join(root, 'data/manifest.json'), JSON.stringify({ format: 'compete-dataset', version: 1 }));
  await writeFile(join(root, 'data', PARQUET.slice('/data/'.length)), randomBytes(PARQUET_BYTES));
  return root;
}

/** Starts the child server; resolves with it and its URL (rejects after 30 s). */
function startChild(root: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(import.meta.filename, ['--serve', root], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start within 30 s')), 30_000);
    child.once('message', (m: { url: string }) => {
      clearTimeout(timer);
      resolve({ child, url: m.url });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const root = await makeSite();
  let child: ChildProcess | null = null;
  try {
    const started = await startChild(root);
    child = started.child;
    const login = await fetch(new URL('api/auth/login', started.url), { redirect: 'manual' });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('compete_session='))?.split(';')[0];
    if (!cookie) throw new Error(`no session cookie from the development sign-in (status ${login.status})`);
    const range = () => {
      const start = Math.floor(Math.random() * (PARQUET_BYTES - RANGE_BYTES));
      return `bytes=${start}-${start + RANGE_BYTES - 1}`;
    };
    const withRange = (request: autocannon.Request) => ({ ...request, headers: { ...request.headers, range: range() } });
    const result = await autocannon({
      url: started.url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      timeout: 10,
      headers: { cookie },
      requests: [
        { method: 'GET', path: '/', headers: { cookie, 'accept-encoding': 'gzip, br' } },
        { method: 'GET', path: '/assets/app-bench.js', headers: { cookie, 'accept-encoding': 'gzip, br' } },
        { method: 'GET', path: '/data/manifest.json', headers: { cookie } },
        { method: 'GET', path: PARQUET, headers: { cookie, range: 'bytes=-8' } },
        { method: 'GET', path: PARQUET, headers: { cookie }, setupRequest: withRange },
        { method: 'GET', path: PARQUET, headers: { cookie }, setupRequest: withRange },
      ],
    });
    const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => `${code}: ${s.count}`).join(', ');
    console.log(`server load: ${CONNECTIONS} connections x ${DURATION_S} s on 127.0.0.1 (/, a 96 KB script, manifest, Parquet footer + 64 KiB ranges)`);
    console.log(`  requests: ${result.requests.total.toLocaleString('en-US')} (${result.requests.average.toFixed(0)} req/s), ` +
      `${(result.throughput.average / 1e6).toFixed(1)} MB/s`);
    console.log(`  latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(`  errors: ${result.errors}, timeouts: ${result.timeouts}, non-2xx: ${result.non2xx}; status codes: ${statuses}`);
    if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) process.exitCode = 1;
  } finally {
    child?.disconnect();
    await new Promise((r) => setTimeout(r, 200));
    if (child && child.exitCode === null) child.kill();
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3] ?? '');
else await main();
