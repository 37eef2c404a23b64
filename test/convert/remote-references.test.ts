/**
 * Remote provider references (CMS v1 `provider_references[].location`) fetched by the converter
 * from a local HTTP server: bounded concurrency, time-out, retries on 5xx only, a cache keyed on
 * the URL without its query string (in memory and on disk), failures counted per file. The real
 * CareFirst file's internet locations go through a fetch that fails at once: no DNS is asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import { RemoteReferenceResolver, cacheKey } from '../../scripts/convert/ingest/remote-references';
import { DEFAULT_FETCH_POLICY, fetchBytes } from '../../scripts/convert/plan/fetch-policy';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { failingFetch, json, startLocalHttp, type LocalHttp } from './local-http';

const price = (rate: number): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}`;

/** provider_references come AFTER in_network here (key order is not guaranteed, docs/converter.md, Quirks of real files). */
function inNetworkFile(base: string): string {
  return `{"reporting_entity_name":"Remote Test Plan","reporting_entity_type":"health insurance issuer",
  "last_updated_on":"2025-03-01","version":"1.0.0",
  "in_network":[{"negotiation_arrangement":"ffs","name":"Office visit","billing_code_type":"CPT","billing_code_type_version":"2025",
    "billing_code":"99213","description":"Office visit","negotiated_rates":[
      {"provider_references":[1.10,2],"negotiated_prices":[${price(100)}]},
      {"provider_references":[3,4,5],"negotiated_prices":[${price(120)}]}]}],
  "provider_references":[
    {"provider_group_id":1.10,"location":"${base}/refs/a.json?Expires=1&Signature=x"},
    {"provider_group_id":2,"location":"${base}/refs/a.json?Expires=2&Signature=y"},
    {"provider_group_id":3,"location":"${base}/refs/missing.json"},
    {"provider_group_id":4,"location":"${base}/refs/flaky.json"},
    {"provider_group_id":5,"location":"${base}/refs/slow.json"},
    {"provider_group_id":6,"location":"${base}/refs/unused.json"}]}`;
}

const A = { version: '1.0.0', provider_groups: [{ npi: [1111111112, 2222222220], tin: { type: 'ein', value: '11-1111111' } }] };
const FLAKY = { provider_groups: [{ npi: [3333333334], tin: { type: 'ein', value: '22-2222222' } }] };
const POLICY = { timeoutMs: 300, retries: 1, backoffMs: 1 };

let http: LocalHttp;
let tmp: string;
let manifest: DatasetManifest;
let report: ConversionReport;

beforeAll(async () => {
  http = await startLocalHttp({
    '/refs/a.json': json(A),
    '/refs/flaky.json': (_req, res, hit) => {
      if (hit === 1) res.writeHead(503).end('busy');
      else res.writeHead(200).end(JSON.stringify(FLAKY));
    },
    '/refs/slow.json': (_req, res) => void setTimeout(() => res.end(JSON.stringify(A)), 10_000).unref(),
    '/refs/unused.json': json(A),
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-remote-'));
  await writeFile(path.join(tmp, 'in-network.json'), inNetworkFile(http.base));
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({
    reference_insurer: 'r', insurers: [{ id: 'r', name: 'Remote', files: [{ url: 'in-network.json' }] }],
  }));
  ({ manifest } = await convertCatalog(path.join(tmp, 'catalog.json'), path.join(tmp, 'out'), {
    quiet: true, fetchPolicy: POLICY, referenceCacheDir: path.join(tmp, 'cache'),
  }));
  report = JSON.parse(await readFile(path.join(tmp, 'out', 'report.json'), 'utf8')) as ConversionReport;
});

afterAll(async () => {
  await http.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('remote provider references', () => {
  it('fetches each file once per URL without query, retries a 503 but not a 404, gives up on a slow one, skips unused groups', () => {
    expect(Object.fromEntries(http.hits)).toEqual({
      '/refs/a.json': 1, // groups 1.10 and 2 differ only by the query string: one request
      '/refs/missing.json': 1, // 404: no retry
      '/refs/flaky.json': 2, // 503 then 200
      '/refs/slow.json': 2, // time-out, retried once (retries: 1), times out again
    }); // /refs/unused.json: group 6 is named by no rate, never requested
  });

  it('counts rows and unresolved references by hand', () => {
    const src = manifest.sources[0]!;
    // rate 1: 1 price x groups {1.10, 2} = 2 rows; rate 2: 1 price x {3, 4, 5} = 3 rows -> 5
    expect(src.rate_rows).toBe(5);
    // unresolved: group 3 (404) and group 5 (time-out) -> 2 rows, 2 references
    expect(src.unresolved_rate_rows).toBe(2);
    expect(src.unresolved_provider_references).toBe(2);
    expect(manifest.counts.unresolved_provider_references).toBe(2);
    // declared groups: 1.10, 2, 3, 4, 5, 6
    expect(src.provider_groups).toBe(6);
  });

  it('reports each failure with the URL, the status or error, and the JSON path of the group', () => {
    const ps = report.problems.filter((p) => p.code === 'unresolved_remote_reference');
    expect(ps.map((p) => p.path)).toEqual(['$.provider_references[2]', '$.provider_references[4]']);
    expect(ps[0]!.message).toContain(`${http.base}/refs/missing.json: HTTP 404`);
    expect(ps[1]!.message).toContain(`${http.base}/refs/slow.json: timed out after 300 ms`);
    expect(report.problems).toHaveLength(2);
  });

  it('adds the fetched providers to the group id of the referencing file', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      const file = path.join(tmp, 'out', manifest.tables.provider_groups.files[0]!);
      const r = await con.runAndReadAll(`SELECT provider_group_key, provider_id, tin_value FROM read_parquet('${file}') ORDER BY 1, 2`);
      expect(r.getRowObjectsJS()).toEqual([
        { provider_group_key: '0:1.10', provider_id: '1111111112', tin_value: '11-1111111' },
        { provider_group_key: '0:1.10', provider_id: '2222222220', tin_value: '11-1111111' },
        { provider_group_key: '0:2', provider_id: '1111111112', tin_value: '11-1111111' },
        { provider_group_key: '0:2', provider_id: '2222222220', tin_value: '11-1111111' },
        { provider_group_key: '0:4', provider_id: '3333333334', tin_value: '22-2222222' },
      ]);
    } finally {
      con.closeSync();
      db.closeSync();
    }
  });

  it('a second run takes fetched files from the on-disk cache and asks again only for failures', async () => {
    await convertCatalog(path.join(tmp, 'catalog.json'), path.join(tmp, 'out2'), {
      quiet: true, fetchPolicy: { ...POLICY, retries: 0 }, referenceCacheDir: path.join(tmp, 'cache'),
    });
    expect(http.hits.get('/refs/a.json')).toBe(1);
    expect(http.hits.get('/refs/flaky.json')).toBe(2);
    expect(http.hits.get('/refs/missing.json')).toBe(2);
    expect(http.hits.get('/refs/slow.json')).toBe(3);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const server = await startLocalHttp(Object.fromEntries(Array.from({ length: 10 }, (_, k) => [
      `/g${k}.json`, (_req, res) => void setTimeout(() => res.end(JSON.stringify(A)), 20),
    ])));
    try {
      const resolver = new RemoteReferenceResolver({ ...DEFAULT_FETCH_POLICY, concurrency: 3 });
      const got = await resolver.resolveAll(Array.from({ length: 10 }, (_, k) => ({ provider_group_id: String(k), location: `${server.base}/g${k}.json` })));
      expect(got.every((g) => g.ok)).toBe(true);
      expect(server.peak).toBeLessThanOrEqual(3);
      expect([...server.hits.values()]).toEqual(Array(10).fill(1));
    } finally {
      await server.close();
    }
  });

  it('asks again for a host whose resolver cannot answer now, never for a host name that does not exist', async () => {
    const policy = { ...DEFAULT_FETCH_POLICY, retries: 3, backoffMs: 1 };
    const gone = failingFetch('ENOTFOUND');
    await expect(fetchBytes('https://h.example/g.json', { ...policy, fetch: gone.fetch })).rejects.toThrow('fetch failed');
    expect(gone.calls).toHaveLength(1);
    const busy = failingFetch('EAI_AGAIN');
    await expect(fetchBytes('https://h.example/g.json', { ...policy, fetch: busy.fetch })).rejects.toThrow('fetch failed');
    expect(busy.calls).toHaveLength(4);
  });

  it('cache key: the URL without query string and fragment', () => {
    expect(cacheKey('https://h/p/1.json?Expires=1&Signature=x#f')).toBe('https://h/p/1.json');
    expect(cacheKey('https://h/p/1.json')).toBe('https://h/p/1.json');
  });
});

describe('the real CareFirst file, its internet locations unreachable', () => {
  it('fetches only the 74 groups some rate names (of 370 declared), each once (a host that does not exist), and counts them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-carefirst-'));
    try {
      await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({
        reference_insurer: 'cf',
        insurers: [{ id: 'cf', name: 'CareFirst', files: [{ snapshot: '2025-01', url: path.resolve(__dirname, '../fixtures/mrf/carefirst-examplefile.json.gz') }] }],
      }));
      const f = failingFetch();
      const { manifest: m } = await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'out'), {
        quiet: true, fetchPolicy: { fetch: f.fetch },
      });
      // 370 remote groups declared, 74 referenced (docs/converter.md, Quirks of real files); one URL
      // per group, asked once under the default 3 retries: ENOTFOUND is not retried
      expect(new Set(f.calls).size).toBe(74);
      expect(f.calls).toHaveLength(74);
      expect(f.calls.every((u) => u.startsWith('https://'))).toBe(true);
      expect(m.sources[0]!.unresolved_provider_references).toBe(74);
      expect(m.sources[0]!.unresolved_rate_rows).toBe(122_310);
      const r = JSON.parse(await readFile(path.join(dir, 'out', 'report.json'), 'utf8')) as ConversionReport;
      expect(Object.values(r.counts)).toEqual([{ unresolved_remote_reference: 74 }]);
      expect(r.problems[0]!.message).toMatch(/: https:\/\/.*: fetch failed \(ENOTFOUND\); its rates are unresolved$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
