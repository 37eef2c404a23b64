// The server's static side: the app with SPA fallback and compression, the dataset under /data/
// (read with a development session cookie) with byte ranges, ETag, no compression, security
// headers on every answer, and no path traversal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { CONTENT_SECURITY_POLICY } from '../../scripts/server/security-headers';
import { writeFile } from 'node:fs/promises';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BLOB_SIZE, INDEX_HTML, SECRET, blobByte, devSessionCookie, makeTempSite, rawRequest, type TempSite } from './temp-site';

const BLOB = '/data/rates/part-0.parquet';
let site: TempSite;
let server: RunningServer;
/** `Cookie` header of a development session. */
let cookie: string;

/** GET `path` of the dataset with the session cookie and `headers`. */
const dataRequest = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(server.url, path, { cookie, ...headers }, method);

beforeAll(async () => {
  site = await makeTempSite();
  server = await startServer({ distDir: site.distDir, dataDir: site.dataDir, port: 0, log: () => {}, env: {} });
  cookie = await devSessionCookie(server.url);
});
afterAll(async () => {
  await server?.close();
  await site?.remove();
});

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>): void {
  expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
}

/** Expected bytes [start, end] of the blob, inclusive. */
function slice(start: number, end: number): number[] {
  return Array.from({ length: end - start + 1 }, (_, k) => blobByte(start + k));
}

describe('dataset under /data/', () => {
  it('serves the whole file with Accept-Ranges, ETag and no compression', async () => {
    const res = await dataRequest(BLOB, { 'accept-encoding': 'gzip, br, deflate' });
    expect(res.status).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBe(BLOB_SIZE);
    expect(Number(res.headers['content-length'])).toBe(BLOB_SIZE);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expectSecurityHeaders(res.headers);
  });

  it('answers HEAD with the size and Accept-Ranges and no body (how readers learn the file size)', async () => {
    const res = await dataRequest(BLOB, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(BLOB_SIZE));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.body.length).toBe(0);
  });

  it('answers a single range with 206, the exact bytes and Content-Range', async () => {
    const res = await dataRequest(BLOB, { range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${BLOB_SIZE}`);
    expect(res.headers['content-length']).toBe('100');
    expect([...res.body]).toEqual(slice(100, 199));
    expectSecurityHeaders(res.headers);
  });

  it('answers a suffix range (bytes=-10) with the last 10 bytes', async () => {
    const res = await dataRequest(BLOB, { range: 'bytes=-10' });
    expect(res.status).toBe(206);
    // 4096 bytes: the last ten are 4086..4095.
    expect(res.headers['content-range']).toBe(`bytes 4086-4095/${BLOB_SIZE}`);
    expect([...res.body]).toEqual(slice(4086, 4095));
  });

  it('answers an open range (bytes=4000-) up to the end', async () => {
    const res = await dataRequest(BLOB, { range: 'bytes=4000-' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 4000-4095/${BLOB_SIZE}`);
    expect(res.body.length).toBe(96);
  });

  it.each(['bytes=5000-6000', 'bytes=20-10', 'bytes=abc'])('answers %s with 416 and bytes */size', async (range) => {
    const res = await dataRequest(BLOB, { range });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${BLOB_SIZE}`);
    expectSecurityHeaders(res.headers);
  });

  it('answers If-None-Match with the ETag by 304', async () => {
    const first = await dataRequest(BLOB);
    const etag = String(first.headers.etag);
    const again = await dataRequest(BLOB, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves manifest.json as JSON, uncompressed even when the client accepts gzip', async () => {
    const res = await dataRequest('/data/manifest.json', { 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({ format: 'compete-dataset' });
  });

  it('answers a missing data file with 404 JSON, not the app', async () => {
    const res = await dataRequest('/data/nope.parquet');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).error.code).toBe('not_found');
    expectSecurityHeaders(res.headers);
  });
});

describe('suffix ranges (RFC 9110 §14.1.2: a suffix longer than the file selects all of it)', () => {
  /** A 3-byte file and an empty one beside the blob. */
  const SMALL = '/data/rates/small.bin';
  const EMPTY = '/data/rates/empty.bin';
  beforeAll(async () => {
    await writeFile(`${site.dataDir}/rates/small.bin`, Buffer.from([1, 2, 3]));
    await writeFile(`${site.dataDir}/rates/empty.bin`, Buffer.alloc(0));
  });

  it.each(['bytes=-99999999', `bytes=-${BLOB_SIZE + 1}`, `bytes=-${BLOB_SIZE}`, 'bytes=0-'])(
    'answers %s with 206 and the whole file',
    async (range) => {
      const res = await dataRequest(BLOB, { range });
      expect(res.status).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes 0-${BLOB_SIZE - 1}/${BLOB_SIZE}`);
      expect(res.headers['content-length']).toBe(String(BLOB_SIZE));
      expect([...res.body]).toEqual(slice(0, BLOB_SIZE - 1));
      expectSecurityHeaders(res.headers);
    },
  );

  it('answers an over-long suffix of a 3-byte file with its 3 bytes, and HEAD alike', async () => {
    const res = await dataRequest(SMALL, { range: 'bytes=-5' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 0-2/3');
    expect([...res.body]).toEqual([1, 2, 3]);
    const head = await dataRequest(SMALL, { range: 'bytes=-99999999' }, 'HEAD');
    expect(head.status).toBe(206);
    expect(head.headers['content-range']).toBe('bytes 0-2/3');
    expect(head.headers['content-length']).toBe('3');
  });

  it('still answers a suffix shorter than the file with its last bytes', async () => {
    const res = await dataRequest(SMALL, { range: 'bytes=-2' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 1-2/3');
    expect([...res.body]).toEqual([2, 3]);
  });

  it.each([
    [BLOB, 'bytes=-0', BLOB_SIZE],
    [SMALL, 'bytes=-0', 3],
    [SMALL, 'bytes=5-', 3],
    [SMALL, 'bytes=3-', 3],
  ])('answers %s with %s by 416 and bytes */size', async (path, range, size) => {
    const res = await dataRequest(path, { range });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
    expectSecurityHeaders(res.headers);
  });

  it('answers a suffix range of an empty file with 200 and no bytes (no 206 can describe it)', async () => {
    const res = await dataRequest(EMPTY, { range: 'bytes=-5' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers['content-range']).toBeUndefined();
  });

  it('leaves multiple ranges as they were: two ranges -> 200 whole, an over-long suffix among them is dropped', async () => {
    const two = await dataRequest(BLOB, { range: 'bytes=0-5,10-20' });
    expect(two.status).toBe(200);
    expect(two.body.length).toBe(BLOB_SIZE);
    const mixed = await dataRequest(BLOB, { range: 'bytes=-99999999,0-5' });
    expect(mixed.status).toBe(206);
    expect(mixed.headers['content-range']).toBe(`bytes 0-5/${BLOB_SIZE}`);
  });

  it('keeps If-Range: the current ETag gives 206 with the whole file, a stale one 200', async () => {
    const etag = String((await dataRequest(BLOB, {}, 'HEAD')).headers.etag);
    const fresh = await dataRequest(BLOB, { range: 'bytes=-99999999', 'if-range': etag });
    expect(fresh.status).toBe(206);
    expect(fresh.headers['content-range']).toBe(`bytes 0-${BLOB_SIZE - 1}/${BLOB_SIZE}`);
    const stale = await dataRequest(BLOB, { range: 'bytes=-99999999', 'if-range': '"stale-etag"' });
    expect(stale.status).toBe(200);
    expect(stale.headers['content-range']).toBeUndefined();
    expect(stale.body.length).toBe(BLOB_SIZE);
  });

  it('answers If-None-Match with the ETag by 304 even with an over-long suffix', async () => {
    const etag = String((await dataRequest(BLOB, {}, 'HEAD')).headers.etag);
    const res = await dataRequest(BLOB, { range: 'bytes=-99999999', 'if-none-match': etag });
    expect(res.status).toBe(304);
  });

  it('still refuses a suffix range without a session, on a missing file, and on a traversal', async () => {
    expect((await rawRequest(server.url, BLOB, { range: 'bytes=-99999999' })).status).toBe(401);
    expect((await dataRequest('/data/rates/nope.parquet', { range: 'bytes=-99999999' })).status).toBe(404);
    const traversal = await dataRequest('/data/%2e%2e/secret.txt', { range: 'bytes=-99999999' });
    expect([403, 404]).toContain(traversal.status);
    expect(traversal.text).not.toContain(SECRET);
  });
});

describe('path traversal', () => {
  it.each([
    '/data/../package.json',
    '/data/%2e%2e/package.json',
    '/data/%2E%2E/secret.txt',
    '/data/..%2fsecret.txt',
    '/data/%2e%2e%2fsecret.txt',
    '/data/rates/../../secret.txt',
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
  ])('refuses %s, even to a signed-in session', async (path) => {
    const res = await rawRequest(server.url, path, { cookie });
    expect([400, 403, 404]).toContain(res.status);
    expect(res.text).not.toContain(SECRET);
    expectSecurityHeaders(res.headers);
  });

  it.each(['/data/../package.json', '/data/%2e%2e/secret.txt', '/%64ata/manifest.json', '/DATA/manifest.json', '/data//manifest.json'])(
    'never serves data or secrets for %s without a session',
    async (path) => {
      const res = await rawRequest(server.url, path);
      expect([401, 404, 400, 403]).toContain(res.status);
      expect(res.text).not.toContain(SECRET);
      expect(res.text).not.toContain('compete-dataset');
    },
  );
});

describe('the app', () => {
  it('serves index.html at / with the security headers and no-cache', async () => {
    const res = await rawRequest(server.url, '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX_HTML);
    expect(res.headers['cache-control']).toBe('no-cache');
    expectSecurityHeaders(res.headers);
  });

  it.each(['/live-comparison', '/login', '/auth/callback?token=abc', '/comparison/deep/link'])(
    'falls back to index.html for the client route %s',
    async (path) => {
      const res = await rawRequest(server.url, path);
      expect(res.status).toBe(200);
      expect(res.text).toBe(INDEX_HTML);
      expectSecurityHeaders(res.headers);
    },
  );

  it('compresses a text asset with gzip when asked, and sends it plain otherwise', async () => {
    const zipped = await rawRequest(server.url, '/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).toString('utf8')).toBe(site.assetText);
    const plain = await rawRequest(server.url, '/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(site.assetText);
  });

  it('prefers a precompressed .br sibling written by the build', async () => {
    const text = 'export const precompressed = true;\n'.repeat(64); // 35 x 64 = 2,240 bytes
    await writeFile(`${site.distDir}/assets/pre-1.js`, text);
    await writeFile(`${site.distDir}/assets/pre-1.js.br`, brotliCompressSync(text));
    const res = await rawRequest(server.url, '/assets/pre-1.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.body).toString('utf8')).toBe(text);
  });

  it('caches hashed assets for a year', async () => {
    const res = await rawRequest(server.url, '/assets/app-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('answers a missing asset with 404, not index.html', async () => {
    const res = await rawRequest(server.url, '/assets/missing-123.js');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<html');
  });

  it('answers a missing file outside /assets (e.g. /favicon.ico) with 404, not index.html', async () => {
    const res = await rawRequest(server.url, '/favicon.ico');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<html');
  });

  it('types .wasm as application/wasm', async () => {
    const res = await rawRequest(server.url, '/engine.wasm');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/wasm');
  });

  it('does not fall back to index.html for other methods', async () => {
    const res = await rawRequest(server.url, '/live-comparison', {}, 'POST');
    expect(res.status).toBe(404);
    expectSecurityHeaders(res.headers);
  });
});
