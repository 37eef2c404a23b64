/**
 * SQL of a rate row's price columns in the worker's answers (docs/methodology.md, Rows that count:
 * identical rows count once, whichever files publish them), derived from contract/files/price-columns.ts
 * `rateRows`: a `key` or `key_lower` column is part of a row's identity (a code list as '' when
 * none, a `key_lower` one in lower case, the rate as DOUBLE), a `min` column the least value of the
 * identical rows.
 */
import { RATE_ROW_PRICE_COLUMNS, type PriceColumnSpec } from '../../contract/files/price-columns';
import { SqlFragment } from '../db/sql';

/** The expression of key column `c` of relation `alias` as the rows compare it. */
function keySql(alias: string, c: PriceColumnSpec): string {
  const x = `${alias}.${c.name}`;
  if (c.kind === 'codes') return `coalesce(${x}, '')`;
  return c.rateRows === 'key_lower' ? `lower(${x})` : x;
}

const keys = RATE_ROW_PRICE_COLUMNS.filter((c) => c.rateRows === 'key' || c.rateRows === 'key_lower');

/**
 * The price columns of the rows of `alias` (a relation of `rates`) grouped to identical rows:
 * `select` (each `AS` its column name, for a SELECT list with GROUP BY) and `groupBy` (the key
 * expressions, for the GROUP BY).
 */
export function priceRowSql(alias: string): { select: SqlFragment; groupBy: SqlFragment } {
  const select = RATE_ROW_PRICE_COLUMNS.map((c) => {
    if (c.rateRows === 'min') return `min(${alias}.${c.name}) AS ${c.name}`;
    return `${keySql(alias, c)}${c.kind === 'number' ? '::DOUBLE' : ''} AS ${c.name}`;
  });
  return {
    select: new SqlFragment(select.join(', '), []),
    groupBy: new SqlFragment(keys.map((c) => keySql(alias, c)).join(', '), []),
  };
}

/** The price columns of relation `alias` (its columns named as in `rates`), in table order. */
export const priceRowColumns = (alias: string): SqlFragment =>
  new SqlFragment(RATE_ROW_PRICE_COLUMNS.map((c) => `${alias}.${c.name}`).join(', '), []);

/**
 * The ORDER BY of the rows of `alias`: `rate` (the number columns) comes before the provider,
 * `rest` after it: the other `key` columns in table order, then the `key_lower` ones (the
 * negotiated type, which only breaks ties).
 */
export function priceRowOrder(alias: string): { rate: SqlFragment; rest: SqlFragment } {
  const col = (c: PriceColumnSpec): string => `${alias}.${c.name}`;
  const rest = [...keys.filter((c) => c.kind !== 'number' && c.rateRows === 'key'), ...keys.filter((c) => c.rateRows === 'key_lower')];
  return {
    rate: new SqlFragment(keys.filter((c) => c.kind === 'number').map(col).join(', '), []),
    rest: new SqlFragment(rest.map(col).join(', '), []),
  };
}
