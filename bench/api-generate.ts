/**
 * Generates, deterministically, a dataset of `rateRows` rate rows for the API benchmark, written
 * directly in the dataset schema (contract/dataset.ts) with `@duckdb/node-api` rather than through
 * MRFs and the converter's reader: 10 insurers x 2 snapshots, 500 CPT services, 20,000 providers in
 * 10 states by default (one NPI per provider group; REAL_FILE_SHAPE: the shape of a dataset
 * converted from real insurer files, 20,000 services, 50,000 providers in the 51 state areas), rates around a per-code base price with insurer and
 * provider factors, 2 % `percentage` rows, every rate valid (validation NULL) with a national
 * Medicare amount of 0.8 x the code's base price per unit. `price_stats` is computed with the same
 * rules as the converter (distinct valid dollar rows per NPI; medians per snapshot x insurer x
 * comparison unit x state, plus 'ALL'; every row here is global, professional rows non-facility,
 * institutional ones facility; market rows only: the shared-provider rows are not generated, so
 * `shared_providers=1` answers no unit here); the Parquet files and the row-group index come from
 * the converter's own writer (scripts/convert/write-parquet.ts), but for `rates`, a table here rather
 * than the converter's spool: one part sorted by billing code, in the converter's row groups, each
 * price naming one provider group.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { COLUMNS, DATASET_FORMAT, DATASET_FORMAT_VERSION, DEFAULT_VALIDATION, TABLE_NAMES, type DatasetManifest, type ManifestTable, type TableName } from '../contract/dataset';
import { describeRates, RATES_ROW_GROUP_SIZE, writeTable } from '../scripts/convert/write-parquet';
import { sqlString } from '../scripts/convert/spool';
import { STATE_AREAS } from '../src/components/map/us-states';

const INSURERS = 10;
const SNAPSHOTS = ['2025-01', '2025-02'];
const DEFAULT_SERVICES = 500;
const DEFAULT_PROVIDERS = 20_000;
const DEFAULT_STATES = ['CA', 'NY', 'TX', 'FL', 'IL', 'PA', 'OH', 'GA', 'NC', 'MI'];
/** The 50 states and DC, by postal code. */
const ALL_STATE_CODES = [...STATE_AREAS.values()].filter((a) => a.available).map((a) => a.code);

/** The universe of a generated dataset: services (CPT codes), providers and their states. */
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
}

/**
 * The shape of a dataset converted from five real insurer files (issue 30: 3.6 M rate rows, 17,312
 * services, 23,635 providers), rounded up: 20,000 services, 50,000 providers over the 51 state
 * areas, with 4 M rate rows (generateApiDataset's `rateRows`).
 */
export const REAL_FILE_SHAPE = { rateRows: 4_000_000, services: 20_000, providers: 50_000, allStates: true } as const;

/** REAL_FILE_SHAPE at the benchmarks' tiny size (bench/tiny.ts): seconds to generate and open. */
export const REAL_FILE_SHAPE_TINY = { rateRows: 20_000, services: 500, providers: 500, allStates: true } as const;

/**
 * Writes the dataset into `dir` (which must not exist or be empty). Returns its manifest.
 * @throws when DuckDB fails or a file cannot be written.
 */
export async function generateApiDataset(dir: string, rateRows: number, options: GeneratedShape = {}): Promise<DatasetManifest> {
  const PROVIDERS = options.providers ?? DEFAULT_PROVIDERS;
  const SERVICES = options.services ?? DEFAULT_SERVICES;
  const STATES = options.allStates ? ALL_STATE_CODES : DEFAULT_STATES;
  // five-digit codes, 113 apart when few enough (the default dataset's), closer for more services
  const codeStep = Math.max(1, Math.min(113, Math.floor(89_978 / SERVICES)));
  const inst = await DuckDBInstance.create(':memory:', { memory_limit: '6GB', threads: '2' });
  const con = await inst.connect();
  const sources = INSURERS * SNAPSHOTS.length;
  const perCode = Math.ceil(rateRows / (sources * SERVICES));
  const states = STATES.map((s) => `'${s}'`).join(', ');
  await con.run(`
    CREATE TABLE src AS SELECT i * ${SNAPSHOTS.length} + s AS source_id, CASE WHEN i = 0 THEN 'ref' ELSE 'ins' || i END AS insurer_id,
      ([${SNAPSHOTS.map((x) => `'${x}'`).join(', ')}])[s + 1] AS snapshot, i FROM range(${INSURERS}) a(i), range(${SNAPSHOTS.length}) b(s);
    CREATE TABLE codes AS SELECT k, (10021 + k * ${codeStep})::VARCHAR AS billing_code, (50 + (hash(k) % 2000))::DOUBLE AS base FROM range(${SERVICES}) t(k);
    CREATE TABLE providers AS SELECT (1000000000 + p)::VARCHAR AS provider_id, (1000000000 + p)::VARCHAR AS npi,
      'Provider ' || p AS name, CASE WHEN p % 3 = 0 THEN '2' ELSE '1' END AS entity_type,
      ([${states}])[(p % ${STATES.length}) + 1] AS state, lpad((p % 99999)::VARCHAR, 5, '0') AS postal_code, '207Q00000X' AS taxonomy_code,
      CASE WHEN p % 4 = 0 THEN NULL ELSE '01112-05' END AS medicare_locality,
      CASE WHEN p % 4 = 0 THEN NULL ELSE 1.088::DOUBLE END AS gpci_work, CASE WHEN p % 4 = 0 THEN NULL ELSE 1.419::DOUBLE END AS gpci_pe,
      CASE WHEN p % 4 = 0 THEN NULL ELSE 0.445::DOUBLE END AS gpci_mp
      FROM range(${PROVIDERS}) t(p);
    CREATE TABLE provider_groups AS SELECT s.source_id || ':' || p.provider_id AS provider_group_key, s.source_id::INTEGER AS source_id,
      p.provider_id AS provider_group_id, p.provider_id, p.npi, 'npi' AS tin_type, p.npi AS tin_value
      FROM src s, providers p;
    CREATE TABLE rates AS
      SELECT c.billing_code, 'CPT' AS billing_code_type, s.snapshot, s.insurer_id, s.source_id::INTEGER AS source_id,
        CASE WHEN j % 3 = 0 THEN 'institutional' ELSE 'professional' END AS billing_class,
        CASE WHEN hash(c.k, j, s.source_id) % 50 = 0 THEN 'percentage' ELSE 'negotiated' END AS negotiated_type,
        round(c.base * (0.8 + (s.i % 7) * 0.06 + (s.source_id % 2) * 0.03) * (0.85 + (hash(j, c.k, s.source_id) % 300) / 1000.0), 2) AS negotiated_rate,
        s.source_id || ':' || ((1000000000 + (c.k * 7919 + j * 17) % ${PROVIDERS})::VARCHAR) AS provider_group_key,
        '11' AS service_codes, '' AS modifiers, '9999-12-31' AS expiration_date, NULL::VARCHAR AS setting,
        'ffs' AS negotiation_arrangement, NULL::VARCHAR AS additional_information,
        CASE WHEN negotiated_type = 'percentage' THEN NULL ELSE round(c.base * 0.8, 2) END AS medicare_rate, NULL::VARCHAR AS validation
      FROM codes c, src s, range(${perCode}) t(j);
    CREATE TABLE services AS SELECT billing_code, 'CPT' AS billing_code_type, 'Service ' || billing_code AS name,
      'Surgical' AS category, '' AS description, '' AS keywords, 'Published ' || billing_code AS published_name FROM codes;
    CREATE TABLE claims_volume AS
      SELECT billing_code, 'ALL' AS state, c.billing_class, (100 + hash(k, c.billing_class) % 900)::INTEGER AS claims_count
      FROM codes, (VALUES ('professional'), ('institutional')) c(billing_class);
    CREATE TABLE medicare_benchmarks AS
      SELECT billing_code, u.billing_class, 'global' AS component, u.setting, round(base * 0.8, 2) AS medicare_rate,
        CASE u.billing_class WHEN 'professional' THEN 'pfs' ELSE 'opps' END AS source,
        CASE u.billing_class WHEN 'professional' THEN round(base * 0.8 / 32.3465 / 3, 2) END AS work_rvu,
        CASE u.billing_class WHEN 'professional' THEN round(base * 0.8 / 32.3465 / 3, 2) END AS pe_rvu,
        CASE u.billing_class WHEN 'professional' THEN round(base * 0.8 / 32.3465 / 3, 2) END AS mp_rvu
      FROM codes, (VALUES ('professional', 'non-facility'), ('institutional', 'facility')) u(billing_class, setting);
    CREATE TABLE dollar_rows AS
      SELECT DISTINCT r.snapshot, r.insurer_id, r.billing_code, g.provider_id, r.billing_class, r.negotiated_type,
        r.negotiated_rate, r.service_codes, r.modifiers, r.medicare_rate
      FROM rates r JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
      WHERE r.negotiated_type IN ('negotiated', 'fee schedule', 'derived') AND r.negotiated_rate > 0 AND r.validation IS NULL;
    CREATE TABLE price_stats AS
      WITH x AS (SELECT d.*, p.state, 'global' AS component,
          CASE d.billing_class WHEN 'institutional' THEN 'facility' ELSE 'non-facility' END AS unit_setting
        FROM dollar_rows d LEFT JOIN providers p USING (provider_id))
      SELECT snapshot, insurer_id, billing_code, billing_class, component, unit_setting AS setting, 'ALL' AS state,
        median(negotiated_rate) AS median_rate, count(*)::INTEGER AS rate_count, count(DISTINCT provider_id)::INTEGER AS provider_count,
        max(medicare_rate) AS medicare_rate, 'market' AS scope, NULL::VARCHAR AS month
      FROM x GROUP BY snapshot, insurer_id, billing_code, billing_class, component, unit_setting
      UNION ALL
      SELECT snapshot, insurer_id, billing_code, billing_class, component, unit_setting, state, median(negotiated_rate), count(*)::INTEGER,
        count(DISTINCT provider_id)::INTEGER, max(medicare_rate), 'market', NULL
      FROM x WHERE state IS NOT NULL GROUP BY snapshot, insurer_id, billing_code, billing_class, component, unit_setting, state;`);
  await mkdir(path.join(dir, 'rates'), { recursive: true });
  // a rates part's row is a price with its list of group ids (contract/dataset.ts): here one group each
  const cols = COLUMNS.rates.map((c) => (c === 'provider_group_ids' ? `[split_part(provider_group_key, ':', 2)] AS provider_group_ids` : c));
  const copied = await con.runAndReadAll(`COPY (SELECT ${cols.join(', ')} FROM rates ORDER BY billing_code, snapshot, insurer_id, source_id,
      provider_group_key, negotiated_rate, billing_class, negotiated_type)
    TO ${sqlString(path.join(dir, 'rates', 'part-0.parquet'))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${RATES_ROW_GROUP_SIZE})`);
  const rates = await describeRates(con, dir, [Number(copied.getRows()[0]![0])]);
  const tables = { rates } as Record<TableName, ManifestTable>;
  for (const name of TABLE_NAMES) if (name !== 'rates') tables[name] = await writeTable(con, name, dir);
  const src = (await con.runAndReadAll('SELECT source_id, insurer_id, snapshot FROM src ORDER BY source_id')).getRowObjects();
  con.closeSync();
  const manifest: DatasetManifest = {
    format: DATASET_FORMAT,
    format_version: DATASET_FORMAT_VERSION,
    created_at: '2025-03-01T00:00:00Z',
    converter_version: 'bench-generated',
    catalog_sha256: '',
    reference_insurer: 'ref',
    snapshots: SNAPSHOTS,
    insurers: Array.from({ length: INSURERS }, (_, i) => ({
      id: i === 0 ? 'ref' : `ins${i}`, name: i === 0 ? 'Reference' : `Insurer ${i}`, short_name: i === 0 ? 'Ref' : `I${i}`,
      market_share: 0.1, member_count: 1000, regions: STATES,
    })),
    tables,
    sources: src.map((s) => ({
      insurer_id: String(s.insurer_id), snapshot: String(s.snapshot), url: 'generated', reporting_entity_name: 'bench',
      last_updated_on: `${String(s.snapshot)}-01`, version: '1.3.1', bytes: 0, sha256: '', rate_rows: 0,
      unresolved_rate_rows: 0, provider_groups: PROVIDERS, problems: 0,
      validation: { source_not_dollars: 0, below_benchmark: 0, above_benchmark: 0, outlier: 0 }, median_medicare_pct: null,
    })),
    counts: { rate_rows: tables.rates.rows, unresolved_rate_rows: 0, provider_groups: PROVIDERS * sources, providers: PROVIDERS, services: SERVICES, problems: 0, unresolved_provider_references: 0 },
    claims_by_state: false,
    validation: { ...DEFAULT_VALIDATION, ...(options.minProviders === undefined ? {} : { min_providers: options.minProviders }) },
    medicare: { year: 2025, conversion_factor: 32.3465, files: [], notices: [], cpt_descriptors: false },
    headline: { snapshot: SNAPSHOTS[SNAPSHOTS.length - 1]!, avg_overpayment_unvalidated: null, avg_overpayment_validated: null },
  };
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}
