/**
 * SQL text of literal values, for DuckDB (the converter's native client and the worker's
 * DuckDB-WASM alike): the one place string literals are quoted. No Node imports.
 */

/** A SQL string literal (quotes doubled), for a file path or a value in SQL text: "b'c" -> `'b''c'`. */
export const sqlString = (x: string): string => `'${x.replace(/'/g, "''")}'`;

/** SQL list of string literals (sqlString), e.g. for `IN (...)`: ['a', "b'c"] -> `'a', 'b''c'`. */
export const sqlList = (xs: readonly string[]): string => xs.map(sqlString).join(', ');
