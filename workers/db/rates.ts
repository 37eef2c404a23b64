/**
 * Rate rows on demand (docs/architecture.md): the `rates` table starts empty; a handler that needs
 * the rows of some billing codes calls `ensure(codes)`, which reads only the row groups whose
 * billing-code range (manifest `tables.rates.row_groups`) covers them, by range reads of the
 * Parquet file, and appends them once. Loaded and in-flight row groups are remembered, so a code
 * is read at most once per dataset. Column names come from the closed list RATE_ROW_COLUMNS: a
 * part's row is a price, which the table holds once per provider group (rateRowsSql).
 */
import type { ManifestTable } from '../../contract/files/dataset';
import { RATE_ROW_COLUMNS, rateRowsSql } from '../../contract/sql/rate-rows-sql';
import { PRICE_COLUMNS, type PriceColumnName } from '../../contract/files/price-columns';
import type { ByteSource, ReadRowGroups } from '../platform';
import type { Database } from './database';
import { openedFiles, rowGroupsOnce, withRowGroups } from './load';
import { SqlFragment } from './sql';

/**
 * DuckDB types of `rates`, the rate rows (contract/files/dataset.ts RATE_ROW_COLUMNS order; docs/dataset.md
 * data dictionary): the price columns' of contract/files/price-columns.ts, and the others'.
 */
const RATE_TYPES: Record<(typeof RATE_ROW_COLUMNS)[number], string> = {
  ...(Object.fromEntries(PRICE_COLUMNS.map((c) => [c.name, c.sqlType])) as Record<PriceColumnName, string>),
  billing_code: 'VARCHAR',
  billing_code_type: 'VARCHAR',
  snapshot: 'VARCHAR',
  insurer_id: 'VARCHAR',
  source_id: 'INTEGER',
  provider_group_key: 'VARCHAR',
  negotiation_arrangement: 'VARCHAR',
  medicare_rate: 'DOUBLE',
  validation: 'VARCHAR',
};

const COLS = RATE_ROW_COLUMNS.join(', ');

export interface RatesLoader {
  /** Loads the rate rows of `codes` (no-op for codes already loaded). @throws SourceError, DatabaseError */
  ensure(codes: readonly string[]): Promise<void>;
  /** Number of row groups loaded so far. */
  loadedGroups(): number;
  /** Number of distinct billing codes asked for so far. */
  loadedCodes(): number;
}

/** Creates the empty `rates` table in `db` and returns its loader. @throws DatabaseError */
export function createRatesLoader(db: Database, table: ManifestTable, source: ByteSource, open: Promise<ReadRowGroups>): RatesLoader {
  const defs = RATE_ROW_COLUMNS.map((c) => `${c} ${RATE_TYPES[c]}`).join(', ');
  db.exec(new SqlFragment(`CREATE TABLE rates (${defs})`, []));
  const groups = table.row_groups ?? [];
  const fileOf = openedFiles(table, source, open);
  const codes = new Set<string>();
  let loaded = 0;

  // Append through a scratch table: the Arrow types of the file need not equal the table's exactly,
  // and a part holds a row per price with its list of groups, unnested here to the rate rows (rateRowsSql).
  const ensureGroups = rowGroupsOnce(async (file, rowGroups) => {
    await withRowGroups(db, await fileOf(file), 'rates_load', rowGroups, () =>
      db.exec(new SqlFragment(`INSERT INTO rates (${COLS}) ${rateRowsSql('rates_load')}`, [])));
    loaded += rowGroups.length;
  });

  return {
    async ensure(wanted: readonly string[]): Promise<void> {
      const sorted = [...new Set(wanted)].sort();
      for (const code of sorted) codes.add(code);
      // one read per file for the row groups nobody has started (parquet-wasm fetches their ranges)
      await ensureGroups(groups.filter((g) => overlaps(sorted, g.min_billing_code, g.max_billing_code)));
    },
    loadedGroups: () => loaded,
    loadedCodes: () => codes.size,
  };
}

/** Whether some code of the ascending list lies in [min, max] (string order, as the manifest's). */
function overlaps(sorted: readonly string[], min: string, max: string): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! <= max;
}
