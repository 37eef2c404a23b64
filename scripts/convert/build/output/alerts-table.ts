/**
 * Writes the dataset's derived `alerts` table (contract/files/alerts-table.ts) with DuckDB's native
 * Parquet writer: the alert list the worker computed on the dataset while the first view was
 * written (first-view.ts), so that the app reads it instead of computing it again.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Alert } from '../../../../contract/rules/alert-rules';
import { ALERTS_COLUMNS, ALERTS_FILE, ALERTS_ROW_GROUP_ROWS, alertRow } from '../../../../contract/files/alerts-table';
import type { ManifestTable } from '../../../../contract/files/dataset';
import { appendRows, type Cell } from '../append-rows';
import { sqlString } from '../../../../contract/sql/sql-text';
import { sha256File } from './write-parquet';

/**
 * Writes `alerts` (the list in its order) to `dir/alerts.parquet` (zstd, row groups of ALERTS_ROW_GROUP_ROWS, on one DuckDB thread); returns
 * its manifest entry (files, rows, bytes, SHA-256). The same list gives the same bytes.
 * @throws DuckDB's error when the file cannot be written.
 */
export async function writeAlertsTable(dir: string, alerts: readonly Alert[]): Promise<ManifestTable> {
  const file = path.join(dir, ALERTS_FILE);
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  try {
    await con.run(`CREATE TABLE alerts (${ALERTS_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})`);
    const names = ALERTS_COLUMNS.map(([name]) => name);
    await appendRows(con, 'alerts', alerts.map((a, rank) => {
      const row = alertRow(a, rank);
      return names.map((n): Cell => row[n]);
    }));
    await con.run(`COPY (SELECT * FROM alerts ORDER BY rank) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${ALERTS_ROW_GROUP_ROWS})`);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
  return { files: [ALERTS_FILE], rows: alerts.length, bytes: [(await stat(file)).size], sha256: [await sha256File(file)] };
}
