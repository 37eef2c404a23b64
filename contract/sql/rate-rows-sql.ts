/**
 * The rate rows of the dataset's `rates` table (docs/methodology.md, Rows that count) in SQL: their
 * columns and the DuckDB statement that unnests a price's provider groups, shared by the converter,
 * the generator and the worker.
 */
import { COLUMNS } from '../files/dataset';

/**
 * The columns of a rate row (docs/methodology.md, Rows that count), the worker's `rates` table: the stored
 * `rates` columns (COLUMNS.rates) with `provider_group_ids` unnested to one row per group, each as
 * its `provider_group_key` (`<source_id>:<provider_group_id>`, provider_groups' key).
 */
export const RATE_ROW_COLUMNS = COLUMNS.rates.map((c) => (c === 'provider_group_ids' ? 'provider_group_key' : c)) as
  ReadonlyArray<Exclude<(typeof COLUMNS.rates)[number], 'provider_group_ids'> | 'provider_group_key'>;

/**
 * DuckDB SQL of the rate rows (RATE_ROW_COLUMNS, in file order) of `from`, a relation of `rates`
 * parts: a price's row once per id of its `provider_group_ids`, in the list's order, keyed
 * `<source_id>:<provider_group_id>`; once with a NULL key when the list is NULL (the rate names no
 * group). An id no `provider_groups` row has (a remote reference that failed, a dangling id) keeps
 * its key and joins no provider: the empty provider of docs/methodology.md.
 */
export function rateRowsSql(from: string): string {
  const cols = RATE_ROW_COLUMNS.map((c) => (c === 'provider_group_key' ? `CAST(source_id AS VARCHAR) || ':' || provider_group_id AS provider_group_key` : c));
  return `SELECT ${cols.join(', ')} FROM (SELECT *, unnest(coalesce(provider_group_ids, [NULL::VARCHAR])) AS provider_group_id FROM ${from})`;
}
