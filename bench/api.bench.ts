/**
 * Benchmark (run by `npm run bench`): every /api endpoint inside the data worker's logic on the Node
 * platform (DuckDB-WASM's Node build, parquet-wasm: the engine that ships), on the embedded sample
 * dataset, on a generated dataset of the real-file shape (bench/api-generate.ts REAL_FILE_SHAPE:
 * 20,000 services, 50,000 providers in 51 states, 4 M rate rows), on one of 10 M rate rows and on
 * the market-year shape of `npm run generate` (scripts/generate/shapes.ts: 12 monthly snapshots,
 * 24 M rate rows, first view, alerts and unit pivot as a conversion leaves them), each in a temp dir. Each answer's size is shown as JSON bytes (the page's budget: 200 KB for a
 * screen's first view).
 * Reports per endpoint p50/p95 latency (warm: the first call of each endpoint, which loads rate row
 * groups, is shown apart as `cold`; then `--warmup` unmeasured passes over every endpoint; warm
 * calls are served from the answers kept per dataset, workers/memo.ts), `uncached`: the p50 of
 * the same call with those answers forgotten first (what a new selection costs), the
 * same SQL on native DuckDB (@duckdb/node-api, over the same Parquet loaded into tables, the derived
 * tables of workers/db/prepare-tables.ts built alike) as the ratio uncached WASM/native, and cold start (boot to first answer) with the bytes read for it.
 * Targets: p95 < 100 ms (sample), < 1 s (10 M); cold start < 3 s (sample); every endpoint
 * uncached < 300 ms at the market-year shape.
 * Options: `--rows <n>` (default 10000000; 0 = no 10 M dataset), `--real-shape 0` (no real-file
 * shape dataset), `--market-year 0` (no market-year dataset), `--runs <n>` (default 20),
 * `--warmup <passes>` (default 3). Tiny mode (bench/tiny.ts): no sample (converting it takes half a
 * minute), 20,000 generated rate rows over 500 providers, the tiny market-year shape (3 snapshots),
 * 1 run, 1 warm-up pass.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DatasetManifest } from '../contract/files/dataset';
import { rateRowsSql } from '../contract/sql/rate-rows-sql';
import { createDataService } from '../workers/data-service';
import { nodePlatform } from '../workers/platform-node';
import { openNodeDatabase } from '../workers/db/open-node';
import { memoryAckStore } from '../workers/acks/ack-store';
import type { Database } from '../workers/db/database';
import type { SqlFragment } from '../workers/db/sql';
import { DERIVED_TABLES_SQL } from '../workers/db/prepare-tables';
import { writeFirstView } from '../scripts/convert/build/output/first-view';
import { sharedShape } from '../test/datasets-once';
import { generateApiDataset, REAL_FILE_SHAPE, REAL_FILE_SHAPE_TINY, type GeneratedShape } from './api-generate';
import { sqlList } from '../scripts/convert/spool/spool';
import { sampleDataset } from './sample-dataset';
import { numberArg, sized, TINY } from './tiny';

const ROWS = numberArg('--rows', sized(10_000_000, 20_000));
const REAL_SHAPE = numberArg('--real-shape', 1) !== 0;
const MARKET_YEAR = numberArg('--market-year', 1) !== 0;
const RUNS = numberArg('--runs', sized(20, 1));
const WARMUP = numberArg('--warmup', sized(3, 1));

const recorded: SqlFragment[] = [];
let recording = false;
const platform = {
  ...nodePlatform,
  async openDatabase(): Promise<Database> {
    // every dataset's cold start compiles the wasm file, as a browser's first visit does
    const db = await openNodeDatabase({ compileAgain: true });
    return { ...db, all: (q) => (recording && recorded.push(q), db.all(q)) } as Database;
  },
};

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function benchDataset(label: string, dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
  const code = manifest.tables.rates.row_groups?.[Math.floor((manifest.tables.rates.row_groups.length ?? 0) / 2)]?.min_billing_code ?? '';
  const service = createDataService(platform, { acks: memoryAckStore() });
  const t0 = performance.now();
  const state = await service.init({ dataUrl: dir + '/' });
  const first = await service.handle({ method: 'GET', path: '/api/service-pricing', query: {} });
  const cold = performance.now() - t0;
  if (state.status !== 'ready' || first.status !== 200) throw new Error(`boot failed: ${JSON.stringify(state)}`);
  console.log(`\n${label}: ${manifest.tables.rates.rows.toLocaleString('en-US')} rate rows, ${manifest.tables.rates.row_groups?.length ?? 0} row groups`);
  const t = service.timings()!;
  console.log(`  cold start (boot + first /api/service-pricing): ${cold.toFixed(0)} ms, ${service.bytesRead().toLocaleString('en-US')} bytes read (target < 3000 ms on the sample)`);
  console.log(`    boot: manifest at ${t.manifest.toFixed(0)} ms, DuckDB ready at ${t.database.toFixed(0)} ms, first tables (statistics) loaded at ${t.total.toFixed(0)} ms, every boot table at ${t.allTables?.toFixed(0) ?? '-'} ms`);
  const prov = (await service.handle({ method: 'GET', path: '/api/providers-for-service', query: { service_id: code, limit: '5' } })).body as { items: Array<{ id: string }> };
  // Native DuckDB over the same Parquet, every table loaded (rates whole, as the worker's rate rows: rateRowsSql).
  const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await inst.connect();
  for (const [t, e] of Object.entries(manifest.tables)) {
    const files = `read_parquet([${sqlList(e.files.map((f) => path.join(dir, f)))}])`;
    await con.run(`CREATE TABLE ${t} AS ${t === 'rates' ? rateRowsSql(files) : `SELECT * FROM ${files}`}`);
  }
  for (const statement of DERIVED_TABLES_SQL) await con.run(statement.text);
  // a provider the reference insurer rates for the code, among the type-ahead's first ones when one
  // is (else the price details would time an empty answer); chosen on native DuckDB, so that no
  // endpoint is called before its cold call
  const rated = async (among: string): Promise<string | undefined> => {
    const r = await con.runAndReadAll(`SELECT g.provider_id FROM rates r JOIN provider_groups g USING (provider_group_key)
      WHERE r.billing_code = $1 AND r.insurer_id = $2 ${among} ORDER BY g.provider_id LIMIT 1`, [code, manifest.reference_insurer]);
    const v = r.getRows()[0]?.[0];
    return v === undefined || v === null ? undefined : String(v);
  };
  const listed = prov.items.map((i) => i.id);
  const provider = (listed.length ? await rated(`AND g.provider_id IN (${sqlList(listed)})`) : undefined) ?? (await rated('')) ?? listed[0] ?? '';
  const calls: Array<[string, string, Record<string, string>]> = [
    ['GET', '/api/insurers', {}],
    ['GET', '/api/service-pricing', {}],
    ['GET', '/api/dashboard-figures', {}],
    ['GET', '/api/service-pricing', { limit: '50', offset: '0', sort: 'savings', only_overpaying: 'true' }],
    ['GET', '/api/service-pricing', { limit: '50', state: 'CA', billing_class: 'professional' }],
    ['GET', '/api/service-pricing', { limit: '50', providers: provider, services: code }],
    ['GET', '/api/regional-comparison', {}],
    ['GET', '/api/regional-services', { state: 'CA' }],
    ['GET', '/api/regional-services-page', { state: 'CA', limit: '50' }],
    ['GET', '/api/regional-services-page', { state: 'CA', q: code.slice(0, 3), sort: 'service', direction: 'asc', limit: '50' }],
    ['GET', '/api/overpayment-trend', {}],
    ['GET', '/api/alerts', {}],
    ['GET', '/api/alerts-page', { offset: '0', limit: '20' }],
    ['GET', '/api/service-names', {}],
    ['GET', '/api/services-search', { q: code.slice(0, 3), limit: '10' }],
    ['GET', '/api/services-search', { limit: '1' }],
    ['GET', '/api/service-categories', {}],
    ['GET', '/api/providers-for-service', { service_id: code, q: '1', limit: '10' }],
    ['GET', '/api/insurers-for-service', { service_id: code }],
    ['GET', '/api/service-price-details', { service_id: code, provider_id: provider, insurer_id: manifest.reference_insurer }],
  ];
  console.log(`  ${'endpoint'.padEnd(70)} ${'cold'.padStart(8)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'uncached'.padStart(9)} ${'native p50'.padStart(11)} ${'WASM/native'.padStart(11)} ${'JSON bytes'.padStart(11)}`);
  // First call of each endpoint (cold: loads its rate row groups, DuckDB's wasm not yet tiered up),
  // then WARMUP passes over every call, unmeasured, so the first endpoint measured does not pay for
  // V8's tier-up of the wasm alone (it otherwise shows 2-3x the p50 of the same SQL measured later).
  const coldMs: number[] = [];
  const bytes: number[] = [];
  for (const [method, p, query] of calls) {
    const t1 = performance.now();
    const r = await service.handle({ method, path: p, query });
    coldMs.push(performance.now() - t1);
    if (r.status !== 200) throw new Error(`${p} ${JSON.stringify(query)}: ${r.status} ${JSON.stringify(r.body)}`);
    bytes.push(JSON.stringify(r.body).length);
  }
  for (let pass = 0; pass < WARMUP; pass++) for (const [method, p, query] of calls) await service.handle({ method, path: p, query });
  for (const [k, [method, p, query]] of calls.entries()) {
    const times: number[] = [];
    // the previous call's uncached runs below forgot every kept answer: warm this one again
    await service.handle({ method, path: p, query });
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await service.handle({ method, path: p, query });
      times.push(performance.now() - t);
    }
    // the statements of one uncached call, replayed on native DuckDB
    service.forgetAnswers();
    recording = true;
    recorded.length = 0;
    await service.handle({ method, path: p, query });
    recording = false;
    const sqls = [...recorded];
    const native: number[] = [];
    const wasmSql: number[] = [];
    // at least twice, in tiny mode too: a statement that cannot run again (a CREATE without OR REPLACE) fails here
    for (let i = 0; i < Math.max(2, Math.min(RUNS, 5)); i++) {
      let t = performance.now();
      for (const q of sqls) await con.runAndReadAll(q.text, [...q.params] as Array<string | number | boolean | null>);
      native.push(performance.now() - t);
      service.forgetAnswers();
      t = performance.now();
      await service.handle({ method, path: p, query });
      wasmSql.push(performance.now() - t);
    }
    const n50 = pct(native, 50);
    const name = `${method} ${p}${Object.keys(query).length ? '?' + new URLSearchParams(query).toString() : ''}`;
    console.log(
      `  ${name.slice(0, 70).padEnd(70)} ${coldMs[k]!.toFixed(1).padStart(8)} ${pct(times, 50).toFixed(1).padStart(8)} ${pct(times, 95).toFixed(1).padStart(8)} ${pct(wasmSql, 50).toFixed(1).padStart(9)} ` +
        `${(sqls.length ? n50.toFixed(1) : '-').padStart(11)} ${(sqls.length && n50 > 0 ? (pct(wasmSql, 50) / n50).toFixed(1) : '-').padStart(11)} ` +
        `${bytes[k]!.toLocaleString('en-US').padStart(11)}`,
    );
  }
  console.log(`  bytes read after all calls: ${service.bytesRead().toLocaleString('en-US')} of ${Object.values(manifest.tables).reduce((a, t) => a + t.bytes.reduce((x, y) => x + y, 0), 0).toLocaleString('en-US')} in the dataset`);
  con.closeSync();
  await service.close();
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-api-bench-'));
try {
  if (TINY) console.log('tiny mode: the sample dataset is left out');
  else {
    const sampleDir = await sampleDataset(tmp);
    await benchDataset('sample dataset', sampleDir);
  }
  if (REAL_SHAPE) {
    const t = performance.now();
    const real = path.join(tmp, 'real-shape');
    const shape = sized<GeneratedShape & { rateRows: number; services: number; providers: number }>(REAL_FILE_SHAPE, REAL_FILE_SHAPE_TINY);
    const manifest = await generateApiDataset(real, shape.rateRows, shape);
    // as a conversion leaves it: with the first view and the derived alerts table
    await writeFirstView(real, manifest.created_at);
    console.log(`\n(generated the real-file shape, first view included, in ${((performance.now() - t) / 1000).toFixed(0)} s)`);
    await benchDataset(`real-file shape, ${shape.services.toLocaleString('en-US')} services, ${shape.providers.toLocaleString('en-US')} providers, 51 states`, real);
    await rm(real, { recursive: true, force: true });
  }
  if (ROWS > 0) {
    const t = performance.now();
    const big = path.join(tmp, 'generated');
    await generateApiDataset(big, ROWS, { providers: sized(20_000, 500) });
    console.log(`\n(generated ${ROWS.toLocaleString('en-US')} rate rows in ${((performance.now() - t) / 1000).toFixed(0)} s)`);
    await benchDataset(`generated dataset`, big);
    await rm(big, { recursive: true, force: true });
  }
  if (MARKET_YEAR) {
    const t = performance.now();
    const year = path.join(tmp, 'market-year');
    const manifest = await sharedShape('market-year', year, { tiny: TINY });
    console.log(`\n(generated the market-year shape, first view included, in ${((performance.now() - t) / 1000).toFixed(0)} s)`);
    await benchDataset(`market-year shape, ${manifest.snapshots.length} monthly snapshots, ${manifest.counts.services.toLocaleString('en-US')} services, ${manifest.counts.providers.toLocaleString('en-US')} providers (target: every endpoint uncached < 300 ms)`, year);
  }
  console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
