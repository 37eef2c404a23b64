/**
 * The price table the fast path's code is written for (fast-rates.ts names each column in a
 * `switch` and writes them in SPOOL_PRICE_ORDER): each column's CMS field, kind, trimming, padding
 * and place in the shape, in PRICE_COLUMNS order. When contract/files/price-columns.ts differs,
 * FAST_PATH_KNOWS_COLUMNS is a type error, so the build fails instead of the fast path reading a
 * column it does not know.
 */
import { PRICE_COLUMNS, type PriceColumnSpec } from '../../../contract/files/price-columns';

/** What fast-rates.ts reads of each price column, in PRICE_COLUMNS order: [field, kind, trim, pad, shape]. */
type FastPriceColumns = [
  ['billing_class', 'enum', false, false, true],
  ['negotiated_type', 'enum', false, false, true],
  ['negotiated_rate', 'number', false, false, false],
  ['service_code', 'codes', false, true, true],
  ['billing_code_modifier', 'codes', false, false, true],
  ['expiration_date', 'text', true, false, true],
  ['setting', 'enum', false, false, true],
  ['additional_information', 'text', false, false, false],
];
/** The same facts of the table itself. */
type TablePriceColumns<T extends readonly PriceColumnSpec[]> = {
  -readonly [K in keyof T]: T[K] extends { field: infer F; kind: infer Kind; trim: infer Tr; pad: infer P; shape: infer S } ? [F, Kind, Tr, P, S] : never
};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** A type error when PRICE_COLUMNS is not the table the price code is written for. */
export const FAST_PATH_KNOWS_COLUMNS: Same<TablePriceColumns<typeof PRICE_COLUMNS>, FastPriceColumns> = true;
