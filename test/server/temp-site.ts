/**
 * Test helpers for the server: a throw-away site (a minimal built app + a dataset directory with
 * a binary file), raw HTTP requests (no URL normalisation, so `..` reaches the server as sent).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Size of the binary data file, bytes. */
export const BLOB_SIZE = 4096;
/** Byte i of the binary data file: (31 i + 7) mod 256, so every slice is recognisable. */
export function blobByte(i: number): number {
  return (31 * i + 7) % 256;
}
export const INDEX_HTML = '<!doctype html><html><head><title>Compete test</title></head><body>app</body></html>';
/** Content of files placed outside the served directories; must never be served. */
export const SECRET = 'do-not-serve-this-secret';

export interface TempSite {
  root: string;
  distDir: string;
  dataDir: string;
  /** Text of dist/assets/app-abc123.js (above the 1 KB compression threshold). */
  assetText: string;
  remove(): Promise<void>;
}

/**
 * Creates `<tmp>/dist` (index.html, assets/app-abc123.js of 1,640 bytes, engine.wasm), `<tmp>/data`
 * (manifest.json, rates/part-0.parquet of BLOB_SIZE bytes) and `<tmp>/package.json` + `<tmp>/secret.txt`
 * holding SECRET next to them.
 */
export async function makeTempSite(): Promise<TempSite> {
  const root = await mkdtemp(join(tmpdir(), 'compete-server-'));
  const distDir = join(root, 'dist');
  const dataDir = join(root, 'data');
  await mkdir(join(distDir, 'assets'), { recursive: true });
  await mkdir(join(dataDir, 'rates'), { recursive: true });
  await writeFile(join(distDir, 'index.html'), INDEX_HTML);
  // 40 lines of 41 bytes = 1,640 bytes: above the 1,024-byte compression threshold.
  const assetText = 'console.log("app line of forty bytes.");\n'.repeat(40);
  await writeFile(join(distDir, 'assets', 'app-abc123.js'), assetText);
  await writeFile(join(distDir, 'engine.wasm'), Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  await writeFile(join(dataDir, 'manifest.json'), JSON.stringify({ format: 'compete-dataset' }));
  const blob = Buffer.alloc(BLOB_SIZE);
  for (let i = 0; i < BLOB_SIZE; i++) blob[i] = blobByte(i);
  await writeFile(join(dataDir, 'rates', 'part-0.parquet'), blob);
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: SECRET }));
  await writeFile(join(root, 'secret.txt'), SECRET);
  return { root, distDir, dataDir, assetText, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

/** GET (or `method`) `path` exactly as written against `baseUrl`, with `headers` and an optional `body`. */
export function rawRequest(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Writes `text` as is to a TCP connection to `baseUrl` and parses the answer's status line and
 * headers, for requests an HTTP client refuses to send (no Host, oversized or garbled headers).
 * Resolves when the server closes the connection; `text` is everything after the header block.
 */
export function socketRequest(baseUrl: string, text: string): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(base.port), base.hostname);
    socket.on('data', (c: Buffer) => chunks.push(c));
    // The server may reset the connection right after its answer; what arrived still counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) {
        reject(new Error(`no HTTP answer: ${JSON.stringify(raw.slice(0, 200))}`));
        return;
      }
      const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = Buffer.from(raw.slice(end + 4), 'latin1');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, text: body.toString('utf8') });
    });
    socket.write(text);
  });
}

/** Sets environment variables for the duration of `fn`, then restores them. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

/**
 * Signs in through the development sign-in of the server at `baseUrl` and returns the session
 * cookie as a `Cookie` header value (`compete_session=<JWT>`). Throws when no cookie is set.
 */
export async function devSessionCookie(baseUrl: string): Promise<string> {
  const res = await rawRequest(baseUrl, '/api/auth/login');
  const cookie = setCookies(res).find((c) => c.startsWith('compete_session='));
  if (!cookie) throw new Error(`no session cookie from /api/auth/login (status ${res.status})`);
  return cookie.split(';')[0] ?? '';
}

/** The Set-Cookie headers of a response, as a list. */
export function setCookies(res: RawResponse): string[] {
  const raw = res.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}
