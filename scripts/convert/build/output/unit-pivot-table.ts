/**
 * Writes the dataset's derived `unit_pivot` table (contract/files/dataset.ts UNIT_PIVOT_FILE) with
 * DuckDB's native Parquet writer: the unit pivot of the default selection that the worker built on
 * the dataset while the first view was written (first-view.ts, workers/pricing/unit-pivot.ts
 * defaultPivotTable), so that the app's comparison filters read it instead of building it from
 * `price_stats` at every cold start.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UNIT_PIVOT_FILE, type ManifestTable } from '../../../../contract/files/dataset';
import { sqlString } from '../../../../contract/sql/sql-text';
import type { PivotTable } from '../../../../workers/pricing/unit-pivot';
import { appendRows, type Cell } from '../append-rows';
import { sha256File } from './write-parquet';

/** The pivot's column types, as DuckDB names them; each is staged as DOUBLE or VARCHAR and cast back. */
const STAGED: Record<string, 'DOUBLE' | 'VARCHAR'> = { VARCHAR: 'VARCHAR', DOUBLE: 'DOUBLE', INTEGER: 'DOUBLE', BIGINT: 'DOUBLE', BOOLEAN: 'DOUBLE' };

/** A column name as an SQL identifier. */
const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Writes `pivot` to `dir/unit_pivot.parquet` (zstd, its rows in their order, on one DuckDB thread);
 * returns its manifest entry (files, rows, bytes, SHA-256). The same pivot gives the same bytes.
 * @throws Error naming the column when a column's type is not one a pivot has (VARCHAR, DOUBLE,
 *   INTEGER, BIGINT, BOOLEAN) or a value is not a scalar; DuckDB's error when the file cannot be written.
 */
export async function writeUnitPivotTable(dir: string, pivot: PivotTable): Promise<ManifestTable> {
  for (const c of pivot.columns) if (!(c.type in STAGED)) throw new Error(`${UNIT_PIVOT_FILE}: column ${c.name} has type ${c.type}, which the table does not store`);
  const file = path.join(dir, UNIT_PIVOT_FILE);
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  try {
    await con.run(`CREATE TABLE staged (${pivot.columns.map((c) => `${ident(c.name)} ${STAGED[c.type]}`).join(', ')}, staged_order INTEGER)`);
    await appendRows(con, 'staged', pivot.rows.map((row, i): Cell[] => [
      ...row.map((v, c): Cell => {
        if (typeof v === 'boolean') return Number(v);
        if (typeof v === 'number' || typeof v === 'string' || v === null) return v;
        throw new Error(`${UNIT_PIVOT_FILE}: row ${i}, column ${pivot.columns[c]?.name}: not a scalar`);
      }),
      i,
    ]));
    const select = pivot.columns.map((c) => `${ident(c.name)}::${c.type} AS ${ident(c.name)}`).join(', ');
    await con.run(`COPY (SELECT ${select} FROM staged ORDER BY staged_order) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
  return { files: [UNIT_PIVOT_FILE], rows: pivot.rows.length, bytes: [(await stat(file)).size], sha256: [await sha256File(file)] };
}
