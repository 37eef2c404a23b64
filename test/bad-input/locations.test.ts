/**
 * Locations a publisher writes are fetched only over http(s): a table of contents (served over
 * HTTP or on disk) or a provider reference naming `file:///...` (or ftp:, data: ...) is refused
 * and reported in report.json with its JSON path and byte offset, never read, and the run goes
 * on; an http(s) fetch redirected to a `file:` URL is refused alike. A table on disk still lists
 * relative and absolute paths. A path that is a directory or is missing fails the run with one
 * line naming it. Everything is generated under the OS temporary directory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatasetManifest } from '../../contract/files/dataset';
import { runConvertCli } from '../../scripts/convert/cli/convert';
import { DEFAULT_FETCH_POLICY, fetchBytes, RefusedLocationError } from '../../scripts/convert/plan/fetch-policy';
import type { ConversionReport, Problem } from '../../scripts/convert/common/problems';
import { startLocalHttp, type LocalHttp } from '../convert/local-http';
import { tinyInNetwork } from '../convert/tiny-mrf';

const plan = { plan_name: 'P', plan_id_type: 'EIN', plan_id: '11-1111111', plan_market_type: 'group' };
/** A table of contents of one reporting structure listing `locations`. */
const toc = (locations: string[]): string => JSON.stringify({
  reporting_entity_name: 'Index', reporting_entity_type: 'issuer',
  reporting_structure: [{ reporting_plans: [plan], in_network_files: locations.map((location) => ({ description: 'f', location })) }],
});

let tmp: string;
let http: LocalHttp;
/** `file:///<tmp>/secret.json`: a valid in-network file of code 77777 at 777.77. */
let secretUrl: string;

/** Writes catalog `name` in `dir` and runs the command line; exit code, stderr, manifest and report when written. */
async function convert(dir: string, name: string, catalog: object, extra: string[] = []): Promise<{
  code: number; stderr: string; manifest?: DatasetManifest; report?: ConversionReport; reportText?: string;
}> {
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(catalog));
  const out = path.join(dir, `out-${name}`);
  let stderr = '';
  const code = await runConvertCli(['--catalog', file, '--out', out, '--quiet', '--jobs', '1', ...extra], (t) => void (stderr += t));
  if (code !== 0) return { code, stderr };
  const reportText = await readFile(path.join(out, 'report.json'), 'utf8');
  const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as DatasetManifest;
  return { code, stderr, manifest, report: JSON.parse(reportText) as ConversionReport, reportText };
}

const one = (id: string, files: object[], rest: object = {}): object => ({ reference_insurer: id, insurers: [{ id, name: id, files }], ...rest });
const refused = (r: ConversionReport): Problem[] => r.problems.filter((p) => p.code === 'refused_location');

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-locations-'));
  await writeFile(path.join(tmp, 'secret.json'), tinyInNetwork('77777', 777.77));
  secretUrl = pathToFileURL(path.join(tmp, 'secret.json')).href;
  http = await startLocalHttp({
    '/idx/toc.json': (_req, res) => void res.end(toc([secretUrl, 'file:///etc/passwd', '../files/good.json', 'ftp://127.0.0.1/x.json', 'data:application/json,{}'])),
    '/idx/redirect-toc.json': (_req, res) => void res.end(toc(['../files/to-secret.json', '../files/good.json'])),
    '/files/good.json': (_req, res) => void res.end(tinyInNetwork('99213', 100)),
    '/files/to-secret.json': (_req, res) => void res.writeHead(302, { location: secretUrl }).end(),
  });
});

afterAll(async () => {
  await http.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a table of contents served over HTTP', () => {
  it('refuses file:, ftp: and data: locations (reported with path and offset, never read) and converts the http one', async () => {
    const r = await convert(tmp, 'remote-toc', one('web', [{ snapshot: '2025-04', table_of_contents: `${http.base}/idx/toc.json` }]));
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.manifest!.sources.map((s) => [s.url, s.rate_rows])).toEqual([['../files/good.json', 1]]);
    expect(r.manifest!.counts.rate_rows).toBe(1);
    expect(r.manifest!.reporting_structures![0]!.in_network_files).toBe(1);
    const ps = refused(r.report!);
    expect(ps.map((p) => [p.file, p.path])).toEqual([0, 1, 3, 4].map((k) => [`${http.base}/idx/toc.json`, `$.reporting_structure[0].in_network_files[${k}].location`]));
    // the offset of the reporting structure in the index
    expect(ps.every((p) => p.offset === toc([]).indexOf('{"reporting_plans"'))).toBe(true);
    expect(ps.map((p) => p.message)).toEqual([
      `${secretUrl} refused: the file: scheme is not fetched (http and https only); skipped`,
      'file:///etc/passwd refused: the file: scheme is not fetched (http and https only); skipped',
      'ftp://127.0.0.1/x.json refused: the ftp: scheme is not fetched (http and https only); skipped',
      'data:application/json,{} refused: the data: scheme is not fetched (http and https only); skipped',
    ]);
    expect(r.report!.failed_files).toEqual([]);
    // nothing of either target: /etc/passwd starts with root:, the secret file's code is 77777
    expect(r.reportText).not.toMatch(/root:|77777|777\.77/);
  });

  it('refuses a redirect to a file: URL, once, and converts the rest', async () => {
    const r = await convert(tmp, 'redirect-toc', one('web', [{ snapshot: '2025-04', table_of_contents: `${http.base}/idx/redirect-toc.json` }]), ['--fetch-retries', '2']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.manifest!.sources.map((s) => s.url)).toEqual(['../files/good.json']);
    expect(r.report!.failed_files).toEqual([{
      file: '../files/to-secret.json',
      reason: `../files/to-secret.json: cannot fetch (redirect to ${secretUrl} refused: the file: scheme is not fetched (http and https only)) at byte 0`,
    }]);
    expect(http.hits.get('/files/to-secret.json')).toBe(1); // a refusal is not retried
  });

  it('the fetch client refuses another scheme before any request, and a redirect its fetch followed to one', async () => {
    const calls: string[] = [];
    const landed = Object.defineProperty(new Response('root:x:0:0'), 'url', { value: 'file:///etc/passwd' });
    const fetch = (url: string): Promise<Response> => {
      calls.push(url);
      return Promise.resolve(landed);
    };
    const policy = { ...DEFAULT_FETCH_POLICY, retries: 0, fetch };
    await expect(fetchBytes('file:///etc/passwd', policy)).rejects.toThrow('file:///etc/passwd refused: the file: scheme is not fetched (http and https only)');
    expect(calls).toEqual([]);
    const e = await fetchBytes('http://127.0.0.1:1/x.json', policy).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RefusedLocationError);
    expect((e as Error).message).toBe('redirect to file:///etc/passwd refused: the file: scheme is not fetched (http and https only)');
    expect(calls).toEqual(['http://127.0.0.1:1/x.json']);
  });
});

describe('a table of contents on disk', () => {
  it('still lists relative and absolute paths, refuses a file: URL, and names a listed directory', async () => {
    const dir = path.join(tmp, 'local');
    await mkdir(path.join(dir, 'toc', 'mrf', 'sub'), { recursive: true });
    await writeFile(path.join(dir, 'toc', 'mrf', 'a.json'), tinyInNetwork('99213', 100));
    await writeFile(path.join(dir, 'b.json'), tinyInNetwork('99214', 120));
    await writeFile(path.join(dir, 'toc', 'index.json'), toc(['mrf/a.json', path.join(dir, 'b.json'), secretUrl, 'mrf/sub']));
    const r = await convert(dir, 'local-toc', one('loc', [{ snapshot: '2025-04', table_of_contents: 'toc/index.json' }]));
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.manifest!.sources.map((s) => [s.url, s.rate_rows])).toEqual([['mrf/a.json', 1], [path.join(dir, 'b.json'), 1]]);
    expect(refused(r.report!).map((p) => [p.file, p.path, p.message])).toEqual([[
      'toc/index.json', '$.reporting_structure[0].in_network_files[2].location',
      `${secretUrl} refused: the file: scheme is not fetched (http and https only); skipped`,
    ]]);
    expect(r.report!.failed_files).toEqual([{ file: 'mrf/sub', reason: `${path.join(dir, 'toc', 'mrf', 'sub')}: not a file (a directory) at byte 0` }]);
  });
});

describe('a provider reference', () => {
  it('refuses file: and data: locations: the groups stay unresolved, reported with path and offset', async () => {
    const dir = path.join(tmp, 'refs');
    await mkdir(dir);
    const groups = (npi: number): object => ({ provider_groups: [{ npi: [npi], tin: { type: 'ein', value: '99-9999999' } }] });
    await writeFile(path.join(dir, 'refs.json'), JSON.stringify(groups(9999999991)));
    const refsUrl = pathToFileURL(path.join(dir, 'refs.json')).href;
    const dataUrl = `data:application/json,${encodeURIComponent(JSON.stringify(groups(8888888885)))}`;
    const price = { negotiated_type: 'negotiated', negotiated_rate: 100, expiration_date: '9999-12-31', billing_class: 'professional', service_code: ['11'] };
    await writeFile(path.join(dir, 'in-network.json'), JSON.stringify({
      reporting_entity_name: 'Refs Plan', reporting_entity_type: 'issuer', last_updated_on: '2025-04-01', version: '1.0.0',
      provider_references: [
        { provider_group_id: 1, provider_groups: [{ npi: [1111111112], tin: { type: 'ein', value: '11-1111111' } }] },
        { provider_group_id: 2, location: refsUrl },
        { provider_group_id: 3, location: dataUrl },
      ],
      in_network: [{
        negotiation_arrangement: 'ffs', name: 'S', billing_code_type: 'CPT', billing_code_type_version: '2025', billing_code: '99213', description: 'd',
        negotiated_rates: [{ provider_references: [1, 2, 3], negotiated_prices: [price] }],
      }],
    }));
    const r = await convert(dir, 'refs', one('r', [{ url: 'in-network.json' }]));
    expect([r.code, r.stderr]).toEqual([0, '']);
    const src = r.manifest!.sources[0]!;
    expect([src.rate_rows, src.unresolved_rate_rows, src.unresolved_provider_references]).toEqual([3, 2, 2]);
    expect(r.manifest!.counts.providers).toBe(1);
    const ps = r.report!.problems.filter((p) => p.code === 'refused_location');
    expect(ps.map((p) => [p.file, p.path, p.message])).toEqual([
      ['in-network.json', '$.provider_references[1]',
        `provider group 2: ${refsUrl}: refused: the file: scheme is not fetched (http and https only); its rates are unresolved`],
      ['in-network.json', '$.provider_references[2]',
        `provider group 3: ${dataUrl}: refused: the data: scheme is not fetched (http and https only); its rates are unresolved`],
    ]);
    expect(ps.every((p) => p.offset > 0)).toBe(true);
    expect(r.reportText).not.toContain('9999999991'); // the file: target's NPI
  });
});

describe('a path that is a directory or is missing: exit 1, one line naming it', () => {
  const cases: Array<[string, (dir: string) => object, (dir: string) => string]> = [
    ['an in-network url that is a directory', () => one('a', [{ url: 'dir' }]), (d) => `${d}/dir: not a file (a directory) at byte 0`],
    ['a table of contents that is a directory', () => one('a', [{ table_of_contents: 'dir' }]), () => 'dir: table of contents: not a file (a directory) at byte 0'],
    ['a missing table of contents', () => one('a', [{ table_of_contents: 'gone.json' }]),
      (d) => `gone.json: table of contents: cannot open (ENOENT: no such file or directory, stat '${d}/gone.json') at byte 0`],
    ['a missing npi_registry', () => one('a', [{ url: 'good.json' }], { npi_registry: 'gone.csv' }),
      (d) => `${d}/catalog-case.json: npi_registry ${d}/gone.csv: cannot open (ENOENT: no such file or directory, stat '${d}/gone.csv')`],
    ['a claims_volume that is a directory', () => one('a', [{ url: 'good.json' }], { claims_volume: 'dir' }),
      (d) => `${d}/catalog-case.json: claims_volume ${d}/dir: not a file (a directory)`],
    ['a services file that is a directory', () => one('a', [{ url: 'good.json' }], { services: 'dir' }),
      (d) => `${d}/catalog-case.json: services ${d}/dir: not a file (a directory)`],
    ['a billing-code list that is a directory', () => one('a', [{ url: 'good.json' }], { filters: { billing_codes: 'dir' } }),
      (d) => `${d}/catalog-case.json: filters.billing_codes ${d}/dir: not a file (a directory)`],
  ];
  for (const [name, catalog, line] of cases) {
    it(name, async () => {
      const dir = await mkdtemp(path.join(tmp, 'case-'));
      await mkdir(path.join(dir, 'dir'));
      await writeFile(path.join(dir, 'good.json'), tinyInNetwork('99213', 100));
      const r = await convert(dir, 'catalog-case', catalog(dir));
      expect([r.code, r.stderr]).toEqual([1, `convert: ${line(dir)}\n`]);
    });
  }
});
