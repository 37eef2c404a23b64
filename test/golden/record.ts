/**
 * The golden record of a dataset directory: a SHA-256 of the content of every table, of the
 * manifest, the report and the first view (volatile fields removed), and of the data worker's
 * answer to every request of requests.ts. test/golden/golden.test.ts holds three datasets' records
 * equal to the JSON files beside this module, so that no figure of a table or an /api answer moves
 * without a failing test; update.ts rewrites those files (README.md).
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetManifest, TableName } from '../../contract/files/dataset';
import { FIRST_VIEW_FILE, type FirstView } from '../../contract/files/first-view';
import { sqlList } from '../../scripts/convert/spool/spool';
import { answerHashes, stableBody, type DatasetFacts } from './requests';

/**
 * What a dataset is held to. `tables`: table name (and `manifest`, `report`, `first-view`) to the
 * SHA-256 of its canonical content; `answers`: `${path}?${sorted query}` to `${status}:${SHA-256 of
 * the body's JSON}`.
 */
export interface GoldenRecord {
  tables: Record<string, string>;
  answers: Record<string, string>;
}

/** The text of a golden file: `record` pretty-printed, every key sorted, so that a diff names the table or the request. */
export function formatGolden(record: GoldenRecord): string {
  const sorted = (o: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ answers: sorted(record.answers), tables: sorted(record.tables) }, null, 2) + '\n';
}

/**
 * The differences of `actual` from `recorded`, one line per key: `tables <name>` or `answers
 * <request>`, changed (both values), missing from actual, or new in actual. Empty when they are equal.
 */
export function goldenDifferences(recorded: GoldenRecord, actual: GoldenRecord): string[] {
  const out: string[] = [];
  for (const part of ['tables', 'answers'] as const) {
    const was = recorded[part] ?? {};
    const now = actual[part];
    for (const key of [...new Set([...Object.keys(was), ...Object.keys(now)])].sort()) {
      if (!(key in now)) out.push(`${part} ${key}: missing (recorded ${was[key]})`);
      else if (!(key in was)) out.push(`${part} ${key}: not recorded (now ${now[key]})`);
      else if (was[key] !== now[key]) out.push(`${part} ${key}: changed (recorded ${was[key]}, now ${now[key]})`);
    }
  }
  return out;
}

/** SHA-256 of `text`, lower-case hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The golden record of the dataset in `dir` (manifest.json, its tables, report.json and
 * first-view.json when present).
 * @throws when manifest.json or a table file cannot be read, or the data service does not boot.
 */
export async function goldenOf(dir: string): Promise<GoldenRecord> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await instance.connect();
  try {
    const tables: Record<string, string> = {};
    for (const [name, table] of Object.entries(manifest.tables).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      tables[name] = await tableContentHash(con, table.files.map((f) => path.join(dir, f)));
    }
    tables.manifest = sha256(masked(JSON.stringify(stableManifest(manifest)), dir));
    tables['manifest-layout'] = sha256(JSON.stringify(manifestLayout(manifest)));
    const report = await optionalJson(path.join(dir, 'report.json'));
    // created_at: the time of the conversion
    if (report !== undefined) tables.report = sha256(masked(JSON.stringify(withoutKeys(report, ['created_at'])), dir));
    const firstView = await optionalJson(path.join(dir, FIRST_VIEW_FILE));
    if (firstView !== undefined) tables['first-view'] = sha256(masked(JSON.stringify(stableFirstView(firstView as FirstView)), dir));
    const facts = await datasetFacts(con, dir, manifest);
    const answers = await answerHashes(dir, facts, (body) => masked(body, dir));
    return { tables, answers };
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

/**
 * SHA-256 over the content of one table's Parquet `files`: a first line with the column names and
 * types in the files' order, then one line per row in `ORDER BY ALL` order, the row's values as
 * JSON (@duckdb/node-api's JSON form: doubles as JavaScript numbers, whose shortest round-trip form
 * keeps full precision; BIGINT, DECIMAL and dates as strings; lists as arrays). The bytes of a file
 * (compression, row-group sizes, the writer's version, row order) do not enter.
 */
export async function tableContentHash(con: DuckDBConnection, files: string[]): Promise<string> {
  const h = createHash('sha256');
  const result = await con.stream(`SELECT * FROM read_parquet([${sqlList(files)}]) ORDER BY ALL`);
  h.update(JSON.stringify(result.columnNames().map((n, i) => [n, result.columnType(i).toString()])) + '\n');
  for await (const rows of result.yieldRowsJson()) {
    for (const row of rows) h.update(JSON.stringify(row) + '\n');
  }
  return h.digest('hex');
}

/** The manifest's fields that describe how the tables are cut into files and row groups, not what they hold. */
const LAYOUT_FIELDS = ['files', 'row_groups', 'period_index', 'source_index'] as const;

/**
 * The manifest without what changes from run to run or machine to machine for the same content,
 * and without the layout (manifestLayout):
 * - `created_at`: the time of the conversion;
 * - `converter_version`: the converter's version, which a release changes without changing a figure;
 * - `tables.*.bytes` and `tables.*.sha256`: the Parquet files' bytes, which depend on the writer
 *   (DuckDB's version, compression) as much as on the content; `tables` hashes the content itself;
 * - `sources[].url`, `sources[].table_of_contents`, `reporting_structures[].table_of_contents`:
 *   paths of input files, which differ with where the catalog lies;
 * - `sources[].reused`: whether this run read a file or took it from an earlier run's partition
 *   (the source store's state, not the data).
 * `catalog_sha256` stays: the three catalogs are written the same from run to run (datasets.ts).
 */
export function stableManifest(m: DatasetManifest): unknown {
  const { created_at: _created, converter_version: _version, ...rest } = m;
  return {
    ...rest,
    tables: Object.fromEntries(Object.entries(m.tables).map(([name, t]) => [name, withoutKeys(t, ['bytes', 'sha256', ...LAYOUT_FIELDS])])),
    sources: m.sources.map((s) => withoutKeys(s, ['url', 'table_of_contents', 'reused'])),
    ...(m.reporting_structures ? { reporting_structures: m.reporting_structures.map((r) => withoutKeys(r, ['table_of_contents'])) } : {}),
  };
}

/**
 * Each table's files and row-group indexes (`rates` row_groups, `price_stats` period_index,
 * `provider_groups` source_index): the worker reads by them, so they are held too, apart
 * (`manifest-layout`), so that a change of the layout alone (a row-group size) shows as that key alone.
 */
export function manifestLayout(m: DatasetManifest): unknown {
  return Object.fromEntries(Object.entries(m.tables).map(([name, t]) => [name, Object.fromEntries(LAYOUT_FIELDS.map((f) => [f, t[f] ?? null]))]));
}

/**
 * first-view.json without `created_at` (the manifest's, the time of the conversion), its answers'
 * bodies without the fields requests.ts stableBody removes from the same answers of the worker.
 */
function stableFirstView(v: FirstView): unknown {
  const { created_at: _created, ...rest } = v;
  return { ...rest, answers: Array.isArray(v.answers) ? v.answers.map((a) => ({ ...a, body: stableBody(a.path, a) })) : v.answers };
}

/** `value` (an object) without `keys`. */
function withoutKeys<T extends object>(value: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k))) as Partial<T>;
}

/** `text` with the dataset directory's absolute path replaced by `<dataset>` (it is a temporary directory). */
function masked(text: string, dir: string): string {
  return text.split(path.resolve(dir)).join('<dataset>');
}

/** The JSON object in `file`, or undefined when there is no such file. */
async function optionalJson(file: string): Promise<object | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as object;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * The ids the requests of requests.ts use, taken from the dataset's tables deterministically (ties
 * by string order): the first billing code (string order) with national market statistics of the
 * reference insurer and of a competitor, else the first rated code; its category; the first
 * competitor with statistics of it; the first provider with a reference rate of it, one with a
 * competitor's rate too first; the state with the most per-state market statistics of the latest
 * snapshot, else the first state of `providers`; the code's first unit of the reference insurer's
 * national market statistics (string order of class, component, setting).
 */
async function datasetFacts(con: DuckDBConnection, dir: string, m: DatasetManifest): Promise<DatasetFacts> {
  const from = (t: TableName): string => `read_parquet([${sqlList(m.tables[t].files.map((f) => path.join(dir, f)))}])`;
  const one = async (sql: string, params: Record<string, string> = {}): Promise<string | undefined> => {
    const rows = (await con.runAndReadAll(sql, params)).getRowsJS();
    const v = rows[0]?.[0];
    return v === null || v === undefined ? undefined : String(v);
  };
  const ref = m.reference_insurer;
  const latest = m.snapshots[m.snapshots.length - 1] ?? '';
  const code =
    (await one(
      `SELECT billing_code FROM ${from('price_stats')} WHERE scope = 'market' AND state = 'ALL' GROUP BY billing_code
       HAVING bool_or(insurer_id = $ref) AND bool_or(insurer_id <> $ref) ORDER BY billing_code LIMIT 1`,
      { ref },
    )) ?? (await one(`SELECT min(billing_code) FROM ${from('rates')}`)) ?? '';
  const category = (await one(`SELECT category FROM ${from('services')} WHERE billing_code = $code LIMIT 1`, { code })) ?? '';
  const competitor =
    (await one(`SELECT min(insurer_id) FROM ${from('price_stats')} WHERE billing_code = $code AND insurer_id <> $ref`, { code, ref })) ??
    m.insurers.map((i) => i.id).filter((id) => id !== ref).sort()[0] ?? '';
  const provider =
    (await one(
      `WITH r AS (SELECT g.provider_id, r.insurer_id FROM (SELECT source_id, insurer_id, unnest(provider_group_ids) AS provider_group_id
         FROM ${from('rates')} WHERE billing_code = $code) r
         JOIN ${from('provider_groups')} g ON g.source_id = r.source_id AND g.provider_group_id = r.provider_group_id
         WHERE g.provider_id IS NOT NULL)
       SELECT provider_id FROM r GROUP BY provider_id HAVING bool_or(insurer_id = $ref)
       ORDER BY bool_or(insurer_id <> $ref) DESC, provider_id LIMIT 1`,
      { code, ref },
    )) ?? '';
  const state =
    (await one(
      `SELECT state FROM ${from('price_stats')} WHERE scope = 'market' AND state <> 'ALL' AND snapshot = $latest
       GROUP BY state ORDER BY count(*) DESC, state LIMIT 1`,
      { latest },
    )) ?? (await one(`SELECT min(state) FROM ${from('providers')}`)) ?? 'CA';
  const unit = (await con.runAndReadAll(
    `SELECT billing_class, component, setting FROM ${from('price_stats')}
     WHERE billing_code = $code AND insurer_id = $ref AND scope = 'market' AND state = 'ALL' ORDER BY ALL LIMIT 1`,
    { code, ref },
  )).getRowsJS()[0]?.map(String);
  return {
    reference: ref,
    code,
    category,
    competitor,
    provider,
    state,
    earliest: m.snapshots[0] ?? latest,
    unit: unit ? { billing_class: unit[0]!, component: unit[1]!, setting: unit[2]! } : undefined,
  };
}
