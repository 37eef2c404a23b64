/**
 * Generates, deterministically, a dataset of about `rateRows` rate rows written directly in the
 * dataset schema (contract/files/dataset.ts) with `@duckdb/node-api` rather than through MRFs and the
 * converter's reader (tables-sql.ts says what it holds): 10 insurers x `snapshots` monthly
 * snapshots, 500 CPT services and 20,000 providers in 10 states by default (REAL_FILE_SHAPE: the
 * shape of a dataset converted from real insurer files). `price_stats` follows the converter's
 * rules (price-stats.ts; scope `shared` only with `sharedStats`); the Parquet files and the
 * row-group index come from the converter's own writer (scripts/convert/build/output/write-parquet.ts). `rates`
 * is written like the converter's: one part per billing-code bucket of about BUCKET_ROWS rate rows
 * (the part's rows generated, sorted and aggregated alone, so that memory stays that of one
 * bucket at 24 M rate rows), each in row groups of RATES_ROW_GROUP_SIZE, each price naming one
 * provider group. The same arguments give byte-identical files and manifest.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { COLUMNS, DATASET_FORMAT, DATASET_FORMAT_VERSION, DEFAULT_VALIDATION, TABLE_NAMES, type DatasetManifest, type ManifestTable, type TableName } from '../../contract/files/dataset';
import { BUCKET_ROWS } from '../convert/build/stats/code-buckets';
import { sqlString } from '../convert/spool/spool';
import { describeRates, onOneThread, RATES_ROW_GROUP_SIZE, writeTable } from '../convert/build/output/write-parquet';
import { STATE_AREAS } from '../../contract/rules/state-areas';
import { priceStatsSql } from './price-stats';
import { baseTablesSql, rateRowsOfCodesSql, RATES_ORDER, type GenerationPlan } from './tables-sql';

const INSURERS = 10;
const DEFAULT_SNAPSHOTS = 2;
const DEFAULT_SERVICES = 500;
const DEFAULT_PROVIDERS = 20_000;
const DEFAULT_STATES = ['CA', 'NY', 'TX', 'FL', 'IL', 'PA', 'OH', 'GA', 'NC', 'MI'];
/** The 50 states and DC, by postal code. */
const ALL_STATE_CODES = [...STATE_AREAS.values()].filter((a) => a.available).map((a) => a.code);
/** The first snapshot month; the others follow month after month. */
const FIRST_MONTH = { year: 2025, month: 1 };
/** The manifest's fixed `created_at`: a generated dataset is the same from run to run. */
export const GENERATED_CREATED_AT = '2025-03-01T00:00:00Z';
/**
 * DuckDB's memory limit while generating: one bucket's rows, sort and aggregates (~750k rate rows)
 * take a fraction of it; the sort of `provider_groups` (6 M rows at 12 snapshots) spills beyond it.
 */
const MEMORY_LIMIT = '2GB';

/** DuckDB's spill directories of the runs under way (removeScratchSync). */
const scratches = new Set<string>();

/**
 * Removes the spill directories of the runs under way, synchronously: for a signal handler
 * (cli.ts), since a process ended by a signal runs no `finally`. Never throws.
 */
export function removeScratchSync(): void {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
  scratches.clear();
}

/** The universe of a generated dataset: services (CPT codes), providers, their states and snapshots. */
export interface GeneratedShape {
  /** Providers (default 20,000; the tiny mode shrinks it). */
  providers?: number;
  /** Services (default 500). */
  services?: number;
  /** Whether the providers spread over the 51 state areas rather than 10 states. */
  allStates?: boolean;
  /**
   * The manifest's `validation.min_providers` (default 2, docs/methodology.md). With few rate rows a
   * code, every unit rests on one provider and is thin at 2: 1 gives the dashboards figures.
   */
  minProviders?: number;
  /** Monthly snapshots, consecutive from 2025-01 (default 2). `rateRows` spreads over all of them. */
  snapshots?: number;
  /**
   * Fraction 0..1 of each competitor's rate rows at a provider where the reference insurer rates the
   * same code (default 1: every competitor rates the reference's providers).
   */
  sharedFraction?: number;
  /**
   * Whether `price_stats` holds the rows at shared providers (scope `shared`, per month), as a
   * converted dataset does (default false: the benchmarks' datasets, market rows only).
   */
  sharedStats?: boolean;
}

/**
 * The shape of a dataset converted from five real insurer files (3.6 M rate rows, 17,312
 * services, 23,635 providers), rounded up: 20,000 services, 50,000 providers over the 51 state
 * areas, with 4 M rate rows (generateApiDataset's `rateRows`).
 */
export const REAL_FILE_SHAPE = { rateRows: 4_000_000, services: 20_000, providers: 50_000, allStates: true } as const;

/** REAL_FILE_SHAPE at the benchmarks' tiny size (bench/tiny.ts): seconds to generate and open. */
export const REAL_FILE_SHAPE_TINY = { rateRows: 20_000, services: 500, providers: 500, allStates: true } as const;

/** `count` consecutive months `YYYY-MM` from FIRST_MONTH. */
export function monthlySnapshots(count: number): string[] {
  return Array.from({ length: count }, (_, s) => {
    const m = FIRST_MONTH.year * 12 + FIRST_MONTH.month - 1 + s;
    return `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

/** The plan of `rateRows` rate rows in `options`' shape. @throws RangeError on a size that is not a positive integer. */
function planOf(rateRows: number, options: GeneratedShape): GenerationPlan {
  const snapshots = options.snapshots ?? DEFAULT_SNAPSHOTS;
  const services = options.services ?? DEFAULT_SERVICES;
  const providers = options.providers ?? DEFAULT_PROVIDERS;
  for (const [name, n] of [['rateRows', rateRows], ['snapshots', snapshots], ['services', services], ['providers', providers]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`generate: ${name} must be a positive integer, got ${n}`);
  }
  const sharedFraction = options.sharedFraction ?? 1;
  if (!(sharedFraction >= 0 && sharedFraction <= 1)) throw new RangeError(`generate: sharedFraction must be within 0..1, got ${sharedFraction}`);
  return {
    insurers: INSURERS,
    snapshots: monthlySnapshots(snapshots),
    services,
    providers,
    states: options.allStates ? ALL_STATE_CODES : DEFAULT_STATES,
    perCode: Math.ceil(rateRows / (INSURERS * snapshots * services)),
    sharedFraction,
  };
}

/**
 * Writes the dataset into `dir` (which must not exist or be empty): every table of TABLE_NAMES and
 * `manifest.json` (not `first-view.json`: shapes.ts adds it). Returns its manifest.
 * @throws RangeError on a bad size; when DuckDB fails or a file cannot be written.
 */
export async function generateApiDataset(dir: string, rateRows: number, options: GeneratedShape = {}): Promise<DatasetManifest> {
  const plan = planOf(rateRows, options);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'compete-generate-'));
  scratches.add(scratch);
  const inst = await DuckDBInstance.create(':memory:', { memory_limit: MEMORY_LIMIT, threads: '2', temp_directory: scratch });
  const con = await inst.connect();
  try {
    await con.run(baseTablesSql(plan));
    const src = (await con.runAndReadAll('SELECT source_id, insurer_id, snapshot FROM src ORDER BY source_id')).getRowObjects()
      .map((s) => ({ source_id: Number(s.source_id), insurer_id: String(s.insurer_id), snapshot: String(s.snapshot) }));
    await mkdir(path.join(dir, 'rates'), { recursive: true });
    const rows = await writeBuckets(con, dir, plan, src, options.sharedStats === true);
    const tables = { rates: await describeRates(con, dir, rows) } as Record<TableName, ManifestTable>;
    // writeTable sorts provider_groups by its sources' snapshot, from `sources`
    await con.run('CREATE VIEW sources AS SELECT source_id, insurer_id, snapshot FROM src');
    for (const name of TABLE_NAMES) if (name !== 'rates') tables[name] = await writeTable(con, name, dir);
    const manifest = manifestOf(plan, tables, src, options);
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    return manifest;
  } finally {
    con.closeSync();
    inst.closeSync();
    await rm(scratch, { recursive: true, force: true });
    scratches.delete(scratch);
  }
}

/**
 * Writes `rates/part-<b>.parquet` of each bucket of codes and appends the bucket's statistics to
 * `price_stats`; returns the rows of each part. A part is copied on one DuckDB thread
 * (write-parquet.ts onOneThread), which writes its rows in their sorted order and its row groups at
 * RATES_ROW_GROUP_SIZE.
 */
async function writeBuckets(con: DuckDBConnection, dir: string, plan: GenerationPlan,
  src: ReadonlyArray<{ insurer_id: string; snapshot: string }>, shared: boolean): Promise<number[]> {
  const codesPerBucket = Math.max(1, Math.floor(BUCKET_ROWS / (src.length * plan.perCode)));
  const stats = priceStatsSql({
    rows: `SELECT b.*, split_part(b.provider_group_key, ':', 2) AS provider_id, p.state FROM bucket_rates b LEFT JOIN providers p
      ON p.provider_id = split_part(b.provider_group_key, ':', 2)`,
    sources: src, reference: 'ref', benchmarks: 'medicare_benchmarks', shared,
  });
  await con.run(`CREATE TABLE price_stats (snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR,
    billing_class VARCHAR, component VARCHAR, setting VARCHAR, state VARCHAR, median_rate DOUBLE, rate_count INTEGER, provider_count INTEGER,
    medicare_rate DOUBLE, scope VARCHAR, month VARCHAR, p10 DOUBLE, p25 DOUBLE, p75 DOUBLE, p90 DOUBLE, derived BOOLEAN)`);
  // a part's row is a price with its list of group ids (contract/files/dataset.ts): here one group each
  const cols = COLUMNS.rates.map((c) => (c === 'provider_group_ids' ? `[split_part(provider_group_key, ':', 2)] AS provider_group_ids` : c));
  const rows: number[] = [];
  for (let from = 0, b = 0; from < plan.services; from += codesPerBucket, b++) {
    await con.run(`CREATE OR REPLACE TEMP TABLE bucket_rates AS ${rateRowsOfCodesSql(plan, from, Math.min(plan.services, from + codesPerBucket))}`);
    await onOneThread([con], async () => {
      const copied = await con.runAndReadAll(`COPY (SELECT ${cols.join(', ')} FROM bucket_rates ORDER BY ${RATES_ORDER})
        TO ${sqlString(path.join(dir, 'rates', `part-${b}.parquet`))}
        (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, ROW_GROUP_SIZE ${RATES_ROW_GROUP_SIZE}, PRESERVE_ORDER false)`);
      rows.push(Number(copied.getRows()[0]![0]));
    });
    await con.run(`INSERT INTO price_stats ${stats}`);
  }
  await con.run('DROP TABLE bucket_rates');
  return rows;
}

/** The manifest of a generated dataset: fixed `created_at`, every source's true row count, no problem. */
function manifestOf(plan: GenerationPlan, tables: Record<TableName, ManifestTable>,
  src: ReadonlyArray<{ insurer_id: string; snapshot: string }>, options: GeneratedShape): DatasetManifest {
  const snapshots = [...plan.snapshots];
  return {
    format: DATASET_FORMAT,
    format_version: DATASET_FORMAT_VERSION,
    created_at: GENERATED_CREATED_AT,
    converter_version: 'bench-generated',
    catalog_sha256: '',
    reference_insurer: 'ref',
    snapshots,
    insurers: Array.from({ length: plan.insurers }, (_, i) => ({
      id: i === 0 ? 'ref' : `ins${i}`, name: i === 0 ? 'Reference' : `Insurer ${i}`, group: i === 0 ? 'Reference' : `Insurer ${i}`,
      short_name: i === 0 ? 'Ref' : `I${i}`,
      market_share: 0.1, member_count: 1000, regions: [...plan.states],
    })),
    tables,
    sources: src.map((s) => ({
      insurer_id: s.insurer_id, snapshot: s.snapshot, url: 'generated', reporting_entity_name: 'bench',
      last_updated_on: `${s.snapshot}-01`, version: '1.3.1', bytes: 0, sha256: '', rate_rows: plan.perCode * plan.services,
      unresolved_rate_rows: 0, provider_groups: plan.providers, problems: 0,
      validation: { source_not_dollars: 0, below_benchmark: 0, above_benchmark: 0, outlier: 0 }, median_medicare_pct: null,
    })),
    counts: {
      rate_rows: tables.rates.rows, unresolved_rate_rows: 0, provider_groups: plan.providers * src.length, providers: plan.providers,
      services: plan.services, problems: 0, unresolved_provider_references: 0,
    },
    claims_by_state: false,
    claims_by_provider: false,
    billing_coverage: [],
    validation: { ...DEFAULT_VALIDATION, ...(options.minProviders === undefined ? {} : { min_providers: options.minProviders }) },
    medicare: { year: 2025, conversion_factor: 32.3465, files: [], notices: [], cpt_descriptors: false },
    headline: { snapshot: snapshots[snapshots.length - 1]!, avg_overpayment_unvalidated: null, avg_overpayment_validated: null },
  };
}
