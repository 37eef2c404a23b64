/**
 * Plans (scripts/convert/plan/run-plan.ts, cli/plan.ts, plan-filter.ts; docs/converter.md, Plans):
 * the real BCBS Oklahoma table of contents (test/fixtures/toc, 4,124 links to 586 files) planned
 * offline and with the catalog's plan filters, expected sets computed here from the raw JSON; file
 * sizes by HEAD from a local server; and `convert --plan` converting exactly a plan's files into
 * the dataset the catalog itself gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { FetchPolicy } from '../../scripts/convert/plan/fetch-policy';
import { convertCatalog } from '../../scripts/convert/index';
import { runPlanCli } from '../../scripts/convert/cli/plan';
import { fileNameOf, planMatcher, unsignedLocation } from '../../scripts/convert/plan/plan-filter';
import type { RunPlan } from '../../scripts/convert/plan/run-plan';
import { failingFetch, startLocalHttp, type LocalHttp } from './local-http';
import { tinyInNetwork } from './tiny-mrf';

const BCBS_OK = path.resolve(__dirname, '../fixtures/toc/2025-07-23_Blue-Cross-Blue-Shield-of-Oklahoma_index.json');

interface RawToc {
  reporting_structure: Array<{ reporting_plans: Array<{ plan_market_type: string; plan_name: string }>; in_network_files: Array<{ location: string }> }>;
}

let tmp: string;
let http: LocalHttp;
let raw: RawToc;

/** The plan of `catalog` (written beside it), and what the command printed. */
async function plan(catalog: object, args: string[] = ['--no-head'], policy: Partial<FetchPolicy> = {}): Promise<{ plan: RunPlan; out: string; err: string; code: number }> {
  const dir = await mkdtemp(path.join(tmp, 'plan-'));
  await copyFile(BCBS_OK, path.join(dir, 'index.json'));
  await writeFile(path.join(dir, 'catalog.json'), JSON.stringify(catalog));
  let out = '';
  let err = '';
  const code = await runPlanCli(['--catalog', path.join(dir, 'catalog.json'), '--out', path.join(dir, 'plan.json'), ...args], (t) => void (out += t), (t) => void (err += t), policy);
  const written = code === 0 ? (JSON.parse(await readFile(path.join(dir, 'plan.json'), 'utf8')) as RunPlan) : { files: [] };
  return { plan: written, out, err, code };
}

const okCatalog = (filters?: object): object => ({
  reference_insurer: 'bcbsok',
  insurers: [{ id: 'bcbsok', name: 'BCBS Oklahoma', files: [{ table_of_contents: 'index.json' }] }],
  ...(filters ? { filters } : {}),
});

/** The distinct files (URL without query) of the structures with a plan passing `keep`, from the raw JSON. */
const filesOf = (keep: (p: { plan_market_type: string; plan_name: string }) => boolean): Set<string> =>
  new Set(raw.reporting_structure.filter((s) => s.reporting_plans.some(keep)).flatMap((s) => s.in_network_files.map((f) => f.location.split('?')[0]!)));

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-run-plan-'));
  raw = JSON.parse(await readFile(BCBS_OK, 'utf8')) as RawToc;
  const body = Buffer.from('x'.repeat(1234));
  http = await startLocalHttp({
    '/sized.json.gz': (req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  });
});

afterAll(async () => {
  await http.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('the plan of the real BCBS Oklahoma table of contents', () => {
  it('lists its 586 files once each, with the plans and networks each serves, offline', async () => {
    const { plan: p, out, code } = await plan(okCatalog());
    expect(code).toBe(0);
    const all = filesOf(() => true);
    expect(all.size).toBe(586);
    expect(p.files).toHaveLength(586);
    expect(new Set(p.files.map((f) => f.url.split('?')[0]))).toEqual(all);
    expect(p.files.every((f) => f.insurer_id === 'bcbsok' && f.snapshot === null && f.bytes === null && f.table_of_contents === 'index.json')).toBe(true);
    expect(p.files[0]!.reporting_entity_name).toBe('Blue Cross and Blue Shield of Oklahoma');
    // the first file, '..._890_58B0_in-network-rates_43_of_60.json.gz', is listed by the structures of 840 + 9 + 200 + ... plans
    const first = p.files[0]!;
    const listing = raw.reporting_structure.filter((s) => s.in_network_files.some((f) => f.location.split('?')[0] === first.url.split('?')[0]));
    expect(first.plan_count).toBeGreaterThanOrEqual(Math.max(...listing.map((s) => s.reporting_plans.length)));
    expect(first.plans).toHaveLength(100);
    expect(first.networks).toContain('TN Blue Network P in-network file 43 of 60');
    expect(out).toMatch(/^bcbsok +BCBS Oklahoma +file's month +586 +4,040 +0 B +586$/m);
    expect(out).toContain("total: 586 in-network files to read (4,124 listings before dedup), 0 B known, 586 of unknown size");
  });

  it("keeps exactly the group plans' files with plan_market_type group, and the one individual file with individual", async () => {
    const group = await plan(okCatalog({ plans: { plan_market_type: 'group' } }));
    expect(new Set(group.plan.files.map((f) => f.url.split('?')[0]))).toEqual(filesOf((pl) => pl.plan_market_type === 'group'));
    expect(group.plan.files.every((f) => f.plans.every((pl) => pl.plan_market_type === 'group'))).toBe(true);
    const individual = await plan(okCatalog({ plans: { plan_market_type: 'individual' } }));
    expect(new Set(individual.plan.files.map((f) => f.url.split('?')[0]))).toEqual(filesOf((pl) => pl.plan_market_type === 'individual'));
    expect(individual.plan.files).toHaveLength(1);
    // the structure also serves 66 group plans: the file lists the 7 individual ones it is planned for
    expect(individual.plan.files[0]!.plans.map((pl) => pl.plan_market_type)).toEqual(Array(7).fill('individual'));
    expect(individual.plan.files[0]!.plan_count).toBe(7);
  });

  it('filters by plan name and by file name, and warns when nothing is left', async () => {
    const byName = await plan(okCatalog({ plans: { plan_name: 'blueop' }, file_name: '_320_' }));
    const expected = [...filesOf((pl) => /blueop/i.test(pl.plan_name))].filter((u) => fileNameOf(u).includes('_320_'));
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(byName.plan.files.map((f) => f.url.split('?')[0]))).toEqual(new Set(expected));
    const none = await plan(okCatalog({ plans: { plan_id: ['no such plan'] } }));
    expect([none.code, none.plan.files.length]).toEqual([0, 0]);
    expect(none.err).toContain('warning: index.json: none of its 18 reporting structures serves a plan and a file the catalog\'s filters select');
  });

  it("splits one table of contents into two products by each file entry's own plans, named under their group", async () => {
    const products = await plan({
      reference_insurer: 'ok-group',
      insurers: [
        { id: 'ok-group', name: 'Group plans', group: 'BCBS Oklahoma', files: [{ table_of_contents: 'index.json', plans: { plan_market_type: 'group' } }] },
        // the entry's own plans replace the catalog's filters.plans, which would keep nothing here
        { id: 'ok-individual', name: 'Individual plans', group: 'BCBS Oklahoma', files: [{ table_of_contents: 'index.json', plans: { plan_market_type: 'individual' } }] },
      ],
      filters: { plans: { plan_id: ['no such plan'] } },
    });
    expect(products.code).toBe(0);
    const of = (id: string): Set<string | undefined> => new Set(products.plan.files.filter((f) => f.insurer_id === id).map((f) => f.url.split('?')[0]));
    expect(of('ok-group')).toEqual(filesOf((pl) => pl.plan_market_type === 'group'));
    expect(of('ok-individual')).toEqual(filesOf((pl) => pl.plan_market_type === 'individual'));
    expect(new Set(products.plan.files.map((f) => `${f.insurer_id}=${f.product}`)))
      .toEqual(new Set(['ok-group=BCBS Oklahoma · Group plans', 'ok-individual=BCBS Oklahoma · Individual plans']));
    expect(products.out).toMatch(/^ok-individual +BCBS Oklahoma · Individual plans +file's month +1 +7 +0 B +1$/m);
    // an entry without its own plans takes the catalog's
    const catalogs = await plan({ ...okCatalog({ plans: { plan_market_type: 'individual' } }) });
    expect(catalogs.plan.files.map((f) => f.product)).toEqual(['BCBS Oklahoma']);
  });

  it('refuses a filter pattern that is not a regular expression, naming the field', async () => {
    const bad = await plan(okCatalog({ file_name: '(unclosed' }));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^plan: .*catalog\.json: field filters\.file_name is not a valid regular expression \(/);
  });
});

describe('plan filters', () => {
  it('match every criterion given; an EIN with or without its dash', () => {
    const p = { plan_name: 'Acme PPO Gold', plan_id_type: 'ein', plan_id: '12-3456789', plan_market_type: 'group' };
    expect(planMatcher(undefined)).toBeNull();
    expect(planMatcher({})).toBeNull();
    expect(planMatcher({ plan_name: '\\bppo\\b', plan_market_type: 'group' })!(p)).toBe(true);
    expect(planMatcher({ plan_name: 'ppo', plan_market_type: 'individual' })!(p)).toBe(false);
    expect(planMatcher({ ein: ['123456789'] })!(p)).toBe(true);
    expect(planMatcher({ ein: ['123456789'] })!({ ...p, plan_id_type: 'hios' })).toBe(false);
    expect(planMatcher({ plan_id: ['x', '12-3456789'] })!(p)).toBe(true);
  });

  it('identify a file by its URL without the signature', () => {
    const a = 'https://h.example/m/2025-08_a.json.gz?&Expires=1&Signature=abc&Key-Pair-Id=K';
    const b = 'https://h.example/m/2025-08_a.json.gz?Expires=2&Signature=def&Key-Pair-Id=K';
    expect(unsignedLocation(a)).toBe('https://h.example/m/2025-08_a.json.gz');
    expect(unsignedLocation(a)).toBe(unsignedLocation(b));
    expect(unsignedLocation('https://h.example/f?file=7&X-Amz-Signature=s&X-Amz-Date=d')).toBe('https://h.example/f?file=7');
    expect(unsignedLocation('/data/a.json')).toBe('/data/a.json');
    expect(fileNameOf(a)).toBe('2025-08_a.json.gz');
  });
});

describe('convert --plan', () => {
  let dir: string;
  const planEntry = (name: string, market: string): object => ({ plan_name: name, plan_id_type: 'EIN', plan_id: '11-1111111', plan_market_type: market });

  beforeAll(async () => {
    dir = path.join(tmp, 'convert');
    await mkdir(path.join(dir, 'files'), { recursive: true });
    await writeFile(path.join(dir, 'files', 'a.json'), tinyInNetwork('99213', 101));
    await writeFile(path.join(dir, 'files', 'b.json'), tinyInNetwork('99214', 202));
    await writeFile(path.join(dir, 'files', 'c.json.gz'), gzipSync(Buffer.from(tinyInNetwork('99215', 303))));
    await writeFile(path.join(dir, 'files', 'd.json'), tinyInNetwork('70450', 404));
    await writeFile(path.join(dir, 'toc.json'), JSON.stringify({
      reporting_entity_name: 'Plan Index', reporting_entity_type: 'issuer',
      reporting_structure: [
        { reporting_plans: [planEntry('Acme PPO', 'group')], in_network_files: [{ description: 'Net A', location: 'files/a.json' }, { description: 'Net B', location: 'files/b.json' }] },
        { reporting_plans: [planEntry('Beta HMO', 'individual')], in_network_files: [{ description: 'Net B', location: 'files/b.json' }, { description: 'Net C', location: 'files/c.json.gz' }] },
        { reporting_plans: [planEntry('Gamma EPO', 'group')], in_network_files: [{ description: 'Net D', location: 'files/d.json' }] },
      ],
    }));
    await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({
      reference_insurer: 'acme',
      insurers: [{ id: 'acme', name: 'Acme', files: [{ snapshot: '2025-04', table_of_contents: 'toc.json' }] }],
      filters: { plans: { plan_name: 'ppo|hmo' } },
    }));
  });

  it('converts exactly the files of the plan, into the dataset the catalog gives', async () => {
    const err: string[] = [];
    const out: string[] = [];
    expect(await runPlanCli(['--catalog', path.join(dir, 'catalog.json'), '--out', path.join(dir, 'plan.json'), '--no-head'], (t) => void out.push(t), (t) => void err.push(t))).toBe(0);
    const p = JSON.parse(await readFile(path.join(dir, 'plan.json'), 'utf8')) as RunPlan;
    // b.json is listed by both structures followed: once, with both plans and both networks; d.json's structure serves neither plan
    expect(p.files.map((f) => [f.url, f.plans.map((x) => x.plan_name), f.networks, f.bytes])).toEqual([
      ['files/a.json', ['Acme PPO'], ['Net A'], (await readFile(path.join(dir, 'files', 'a.json'))).length],
      ['files/b.json', ['Acme PPO', 'Beta HMO'], ['Net B'], (await readFile(path.join(dir, 'files', 'b.json'))).length],
      ['files/c.json.gz', ['Beta HMO'], ['Net C'], (await readFile(path.join(dir, 'files', 'c.json.gz'))).length],
    ]);
    expect(err).toEqual([]);

    const byPlan = (await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'by-plan'), { quiet: true, plan: path.join(dir, 'plan.json') })).manifest;
    const byCatalog = (await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'by-catalog'), { quiet: true })).manifest;
    const sources = (m: DatasetManifest): string[][] => m.sources.map((s) => [s.url, s.sha256, s.snapshot]);
    expect(sources(byPlan).map((s) => path.basename(s[0]!))).toEqual(['a.json', 'b.json', 'c.json.gz']);
    expect(sources(byPlan).map((s) => s.slice(1))).toEqual(sources(byCatalog).map((s) => s.slice(1)));
    expect(Object.fromEntries(Object.entries(byPlan.tables).map(([k, t]) => [k, t.sha256]))).toEqual(
      Object.fromEntries(Object.entries(byCatalog.tables).map(([k, t]) => [k, t.sha256])));
    // the plan's structures: the files of one table with the same plans
    expect(byPlan.reporting_structures!.map((s) => [s.table_of_contents, s.reporting_plans.map((x) => x.plan_name), s.source_ids])).toEqual([
      ['toc.json', ['Acme PPO'], [0]],
      ['toc.json', ['Acme PPO', 'Beta HMO'], [1]],
      ['toc.json', ['Beta HMO'], [2]],
    ]);
  });

  it('refuses a plan naming an insurer the catalog does not list, before reading anything', async () => {
    await writeFile(path.join(dir, 'other.json'), JSON.stringify({ files: [{ insurer_id: 'nobody', snapshot: null, url: 'files/a.json', plans: [], bytes: null }] }));
    await expect(convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'refused'), { quiet: true, plan: path.join(dir, 'other.json') }))
      .rejects.toThrow(/other\.json: files\[0\]\.insurer_id nobody is not among the catalog's insurers$/);
    await writeFile(path.join(dir, 'broken.json'), JSON.stringify({ files: [{ insurer_id: 'acme', url: 7 }] }));
    await expect(convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'refused'), { quiet: true, plan: path.join(dir, 'broken.json') }))
      .rejects.toThrow(/broken\.json: field files\.0\.url must be string$/);
  });

  it('asks each remote file its size with HEAD; a file the server refuses keeps an unknown size', async () => {
    const remote = path.join(tmp, 'remote');
    await mkdir(remote);
    await writeFile(path.join(remote, 'catalog.json'), JSON.stringify({
      reference_insurer: 'r',
      insurers: [{ id: 'r', name: 'R', files: [{ snapshot: '2025-04', url: `${http.base}/sized.json.gz?Signature=s` }, { snapshot: '2025-04', url: `${http.base}/missing.json.gz` }] }],
    }));
    let out = '';
    let err = '';
    const code = await runPlanCli(['--catalog', path.join(remote, 'catalog.json'), '--out', path.join(remote, 'plan.json'), '--fetch-retries', '0'],
      (t) => void (out += t), (t) => void (err += t));
    expect(code).toBe(0);
    const p = JSON.parse(await readFile(path.join(remote, 'plan.json'), 'utf8')) as RunPlan;
    expect(p.files.map((f) => f.bytes)).toEqual([1234, null]);
    expect(err).toContain(`warning: no size for ${http.base}/missing.json.gz: HTTP 404`);
    expect(out).toContain('total: 2 in-network files to read (2 listings before dedup), 1.2 KB known, 1 of unknown size');
    expect(http.hits.get('/sized.json.gz')).toBe(1);
  });

  it('asks an unreachable host once, not once per file', async () => {
    const unreachable = failingFetch();
    const { plan: p, err, code } = await plan(okCatalog(), ['--fetch-retries', '0', '--fetch-concurrency', '1'], { fetch: unreachable.fetch });
    // the 586 files are on 3 hosts (BCBS, an Azure blob, EyeMed), each failing like an unresolvable one:
    // one request each, sizes unknown, the plan written
    expect(code).toBe(0);
    const hosts = new Set(p.files.map((f) => new URL(f.url).host));
    expect(hosts.size).toBe(3);
    expect(new Set(unreachable.calls.map((u) => new URL(u).host))).toEqual(hosts);
    expect(unreachable.calls).toHaveLength(3);
    expect(p.files.every((f) => f.bytes === null)).toBe(true);
    expect(err).toMatch(/warning: no size for https:\/\/bcbsok\.mrf\.bcbs\.com\/2025-08_890_58B0_in-network-rates_43_of_60\.json\.gz: fetch failed/);
    expect(err).toContain('warning: no size for 581 more files');
  });
});
