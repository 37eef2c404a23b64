/**
 * The last check of every build: the row counts manifest.json records equal the rows of the Parquet
 * files written, from the files' footers (parquet_metadata), no scan:
 * - every table's `rows` = the rows of its files; each `rates.row_groups` entry's `rows` = its row group's;
 * - `provider_groups.source_index` (when written) = the file's row groups: their rows, and the
 *   smallest and largest source_id it names = the footer's source_id statistics;
 * - `counts.providers` and `counts.services` = the rows of those tables;
 * - `counts.rate_rows` = the sum of the sources' `rate_rows` = the rate rows of the `rates` parts:
 *   one per entry of a price's `provider_group_ids`, one for a price naming none, which is the
 *   leaf column's value count in the footers (a NULL list and a list of k ids store 1 and k values);
 * - each source's `rate_rows` (so each insurer's and snapshot's) lies between the rate rows of the
 *   row groups whose `source_id` statistics hold it alone and those plus the row groups whose
 *   range covers it with others: equal to the first whenever no row group mixes sources.
 * A manifest that counts other rows than the files hold (an input read twice, rows dropped after
 * counting) would give every screen wrong figures without a sign; the run fails instead.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import path from 'node:path';
import type { DatasetManifest } from '../../../contract/files/dataset';

/** The footers' account of one row group of `rates`. */
export interface RatesGroupFacts {
  file: number;
  row_group: number;
  rows: number;
  /** Values of the `provider_group_ids` leaf column: the group's rate rows. */
  rateRows: number;
  /** The `source_id` statistics; null when the footer has none. */
  minSource: number | null;
  maxSource: number | null;
}

/** What the Parquet footers of a dataset say of its rows. */
export interface ParquetFacts {
  /** Rows of each table of the manifest, over its files. */
  rows: Record<string, number>;
  /** Every row group of `rates`, in the manifest's file order. */
  ratesGroups: RatesGroupFacts[];
  /** Every row group of `provider_groups`' one file, with its source_id statistics. */
  providerGroups: Array<{ row_group: number; rows: number; minSource: number | null; maxSource: number | null }>;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Reads the footers of every file `manifest.tables` lists under `outDir`.
 * @throws when a file is missing or not Parquet (DuckDB's error names it).
 */
export async function readParquetFacts(con: DuckDBConnection, outDir: string, manifest: Pick<DatasetManifest, 'tables'>): Promise<ParquetFacts> {
  const rows: Record<string, number> = {};
  const ratesGroups: RatesGroupFacts[] = [];
  const providerGroups: ParquetFacts['providerGroups'] = [];
  for (const [name, table] of Object.entries(manifest.tables)) {
    rows[name] = 0;
    for (const [k, rel] of table.files.entries()) {
      const file = path.join(outDir, rel);
      const meta = await con.runAndReadAll('SELECT num_rows FROM parquet_file_metadata($1)', [file]);
      rows[name] += Number(meta.getRows()[0]![0]);
      if (name === 'provider_groups') {
        const groups = await con.runAndReadAll(`
          SELECT row_group_id, row_group_num_rows, stats_min_value, stats_max_value
          FROM parquet_metadata($1) WHERE path_in_schema = 'source_id' ORDER BY row_group_id`, [file]);
        for (const [g, n, min, max] of groups.getRows()) providerGroups.push({ row_group: Number(g), rows: Number(n), minSource: num(min), maxSource: num(max) });
      }
      if (name !== 'rates') continue;
      const groups = await con.runAndReadAll(`
        SELECT row_group_id, any_value(row_group_num_rows),
               sum(num_values) FILTER (WHERE path_in_schema LIKE 'provider_group_ids,%'),
               any_value(stats_min_value) FILTER (WHERE path_in_schema = 'source_id'),
               any_value(stats_max_value) FILTER (WHERE path_in_schema = 'source_id')
        FROM parquet_metadata($1) GROUP BY row_group_id ORDER BY row_group_id`, [file]);
      for (const [g, n, values, min, max] of groups.getRows()) {
        ratesGroups.push({ file: k, row_group: Number(g), rows: Number(n), rateRows: Number(values ?? 0), minSource: num(min), maxSource: num(max) });
      }
    }
  }
  return { rows, ratesGroups, providerGroups };
}

/** Every disagreement between `manifest`'s counts and `facts` (readParquetFacts), one line each naming both numbers; [] when none. */
export function countMismatches(manifest: Pick<DatasetManifest, 'tables' | 'counts' | 'sources'>, facts: ParquetFacts): string[] {
  const out: string[] = [];
  const differ = (what: string, recorded: number, written: number): void => {
    if (recorded !== written) out.push(`${what}: manifest.json records ${recorded}, the Parquet files hold ${written}`);
  };
  for (const [name, table] of Object.entries(manifest.tables)) differ(`tables.${name}.rows`, table.rows, facts.rows[name] ?? 0);
  const index = manifest.tables.rates?.row_groups ?? [];
  differ('tables.rates.row_groups entries', index.length, facts.ratesGroups.length);
  for (const e of index) {
    const g = facts.ratesGroups.find((x) => x.file === e.file && x.row_group === e.row_group);
    if (g) differ(`tables.rates.row_groups[file ${e.file}, row group ${e.row_group}].rows`, e.rows, g.rows);
  }
  const sourceIndex = manifest.tables.provider_groups?.source_index;
  if (sourceIndex) {
    differ('tables.provider_groups.source_index entries', sourceIndex.length, facts.providerGroups.length);
    for (const e of sourceIndex) {
      const g = facts.providerGroups.find((x) => x.row_group === e.row_group);
      const at = `tables.provider_groups.source_index[row group ${e.row_group}]`;
      if (!g) continue;
      differ(`${at}.rows`, e.rows, g.rows);
      // the footer's source_id range: the smallest and largest of the sources the index names
      differ(`${at} smallest source_id`, Math.min(...e.source_ids), g.minSource ?? -1);
      differ(`${at} largest source_id`, Math.max(...e.source_ids), g.maxSource ?? -1);
    }
  }
  differ('counts.providers', manifest.counts.providers, facts.rows.providers ?? 0);
  differ('counts.services', manifest.counts.services, facts.rows.services ?? 0);
  const written = facts.ratesGroups.reduce((a, g) => a + g.rateRows, 0);
  differ('counts.rate_rows', manifest.counts.rate_rows, written);
  differ('the sources\' rate_rows summed', manifest.sources.reduce((a, s) => a + s.rate_rows, 0), written);
  for (const [id, s] of manifest.sources.entries()) {
    let alone = 0;
    let shared = 0;
    for (const g of facts.ratesGroups) {
      const min = g.minSource ?? 0;
      const max = g.maxSource ?? manifest.sources.length - 1;
      if (min === id && max === id) alone += g.rateRows;
      else if (min <= id && id <= max) shared += g.rateRows;
    }
    if (s.rate_rows < alone || s.rate_rows > alone + shared) {
      const held = shared === 0 ? `${alone}` : `${alone} to ${alone + shared}`;
      out.push(`sources[${id}].rate_rows (${s.insurer_id} ${s.snapshot} ${s.url}): manifest.json records ${s.rate_rows}, the Parquet files hold ${held}`);
    }
  }
  for (const g of facts.ratesGroups) {
    if (g.maxSource !== null && g.maxSource >= manifest.sources.length) {
      out.push(`rates file ${g.file} row group ${g.row_group}: source_id up to ${g.maxSource}, manifest.json lists ${manifest.sources.length} sources`);
    }
  }
  return out;
}

/** The manifest's counts disagree with the Parquet files written. */
export class CountMismatchError extends Error {
  constructor(readonly mismatches: string[]) {
    super(`the dataset's counts do not match its Parquet files: ${mismatches.join('; ')}`);
    this.name = 'CountMismatchError';
  }
}

/**
 * Checks `manifest`'s counts against the Parquet files written under `outDir` (countMismatches).
 * @throws CountMismatchError listing every mismatch with both numbers.
 */
export async function checkManifestCounts(con: DuckDBConnection, outDir: string, manifest: DatasetManifest): Promise<void> {
  const mismatches = countMismatches(manifest, await readParquetFacts(con, outDir, manifest));
  if (mismatches.length > 0) throw new CountMismatchError(mismatches);
}
