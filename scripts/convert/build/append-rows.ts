/**
 * Appends rows of text, numbers and NULLs to a table of the working database through DuckDB's
 * appender (one call per value, no SQL text), for the small tables the converter fills from
 * JavaScript (the Medicare tables, build-tables.ts and validation.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';

/** A value of a row: VARCHAR for a string, DOUBLE for a number, NULL for null. */
export type Cell = string | number | null;

/**
 * Appends `rows` to `table`, in its column order.
 * @throws when a row does not fit the table's columns.
 */
export async function appendRows(con: DuckDBConnection, table: string, rows: Iterable<readonly Cell[]>): Promise<void> {
  const appender = await con.createAppender(table);
  try {
    for (const row of rows) {
      for (const v of row) {
        if (v === null) appender.appendNull();
        else if (typeof v === 'number') appender.appendDouble(v);
        else appender.appendVarchar(v);
      }
      appender.endRow();
    }
  } finally {
    appender.closeSync();
  }
}
