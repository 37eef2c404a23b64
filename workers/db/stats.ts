/**
 * `price_stats` by month (docs/architecture.md, Statistics by month): the converter writes the
 * table sorted by period (a `shared` row's month, a `market` row's snapshot), scope and national
 * rows first, with the runs of every row group in the manifest (`period_index`) and the insurers'
 * market snapshots (`stats_snapshots`). The worker then reads, by range reads of the one Parquet
 * file, only the row groups a request needs (StatsNeed): for a month M, each insurer's latest
 * market snapshot at or before M (docs/methodology.md, Rows that count), or M's shared rows,
 * national or per state. The boot loads the latest month's market rows; the rest loads when a
 * request asks for it, once per dataset. A dataset without the index loads the table whole at
 * boot (eagerStats).
 */
import { COLUMNS, MARKET_SCOPE, SHARED_SCOPE, type ManifestTable, type PeriodIndexEntry, type StatsPart, type StatsSnapshot } from '../../contract/dataset';
import { chosenSnapshots } from '../../contract/metrics';
import type { ByteSource, ReadRowGroups, RowGroupFile } from '../platform';
import type { Database } from './database';
import { DatabaseError, SourceError } from './errors';
import { withRowGroups } from './load';
import { SqlFragment } from './sql';

/**
 * The DuckDB type of each column of `price_stats`, as the converter creates them; the columns and
 * their order are contract/dataset.ts COLUMNS.price_stats', so a new column there is a type error
 * here until it has its type.
 */
const STATS_TYPES: Record<(typeof COLUMNS.price_stats)[number], 'VARCHAR' | 'DOUBLE' | 'INTEGER'> = {
  snapshot: 'VARCHAR',
  insurer_id: 'VARCHAR',
  billing_code: 'VARCHAR',
  billing_class: 'VARCHAR',
  component: 'VARCHAR',
  setting: 'VARCHAR',
  state: 'VARCHAR',
  median_rate: 'DOUBLE',
  rate_count: 'INTEGER',
  provider_count: 'INTEGER',
  medicare_rate: 'DOUBLE',
  scope: 'VARCHAR',
  month: 'VARCHAR',
};

/**
 * What a request reads of `price_stats` (pricing-core.ts): months M, one scope, and national rows,
 * per-state rows or both.
 */
export interface StatsNeed {
  months: readonly string[];
  /** The rows at shared providers (scope `shared`, each month's own) rather than the market's. */
  shared: boolean;
  /** `national`: state 'ALL' only; `states`: the per-state rows only; `all`: both. */
  states: 'national' | 'states' | 'all';
}

/** The part of `price_stats` in the worker's database. */
export interface StatsLoader {
  /** Loads the row groups `need` reads, those not loaded yet; settles once they are in. @throws SourceError, DatabaseError */
  ensure(need: StatsNeed): Promise<void>;
  /** Whether every row group `need` reads is in (pricing-core.ts checks it before reading price_stats). */
  holds(need: StatsNeed): boolean;
  /**
   * Reads the file's footer (once): the boot waits for it, so that a file that cannot be decoded
   * fails the boot as a table loaded whole does. @throws SourceError, DatabaseError naming the file
   */
  open(): Promise<void>;
  /** Row groups loaded so far, and in all (equal for a table loaded whole). */
  loadedGroups(): number;
  totalGroups(): number;
}

/** The loader of a `price_stats` the boot loaded whole: everything is in. */
export function eagerStats(): StatsLoader {
  return { ensure: () => Promise.resolve(), open: () => Promise.resolve(), holds: () => true, loadedGroups: () => 1, totalGroups: () => 1 };
}

/** Whether `table` (the manifest's `price_stats`) can be read by month: one file, its period index and snapshots. */
export function statsByMonth(table: ManifestTable): table is ManifestTable & { period_index: PeriodIndexEntry[]; stats_snapshots: StatsSnapshot[] } {
  return table.files.length === 1 && Array.isArray(table.period_index) && Array.isArray(table.stats_snapshots);
}

/**
 * The row groups `need` reads, ascending: for each month M, the market rows of each insurer's
 * latest snapshot at or before M (docs/methodology.md, Rows that count), or M's own shared rows;
 * national, per-state or both as asked. Pure; `snapshots` as the manifest lists them.
 */
export function rowGroupsOf(index: readonly PeriodIndexEntry[], snapshots: readonly StatsSnapshot[], need: StatsNeed): number[] {
  const periods = new Set<string>();
  for (const month of need.months) {
    if (need.shared) {
      periods.add(month);
      continue;
    }
    for (const p of chosenSnapshots(snapshots, month).values()) periods.add(p);
  }
  const scope = need.shared ? SHARED_SCOPE : MARKET_SCOPE;
  const wanted = (p: StatsPart): boolean =>
    p.scope === scope && periods.has(p.period) && (need.states === 'all' || p.national === (need.states === 'national'));
  return index.filter((g) => g.parts.some(wanted)).map((g) => g.row_group).sort((a, b) => a - b);
}

/**
 * Creates the empty `price_stats` table and returns its loader by month over the table's one file;
 * every `ensure` loads the row groups of `first` (the boot's: the latest month's national rows)
 * before its own. @throws DatabaseError when the table cannot be created.
 */
export function createStatsLoader(
  db: Database,
  table: ManifestTable & { period_index: PeriodIndexEntry[]; stats_snapshots: StatsSnapshot[] },
  source: ByteSource,
  open: Promise<ReadRowGroups>,
  first?: StatsNeed,
): StatsLoader {
  db.exec(new SqlFragment(`CREATE TABLE price_stats (${COLUMNS.price_stats.map((c) => `${c} ${STATS_TYPES[c]}`).join(', ')})`, []));
  const columns = COLUMNS.price_stats.join(', ');
  const started = new Map<number, Promise<void>>();
  const done = new Set<number>();
  let file: Promise<RowGroupFile> | null = null;
  /** The last load started: one row group at a time, so its decoded copy alone is in memory beside the table. */
  let queue: Promise<void> = Promise.resolve();

  function fileOf(): Promise<RowGroupFile> {
    const name = table.files[0];
    const size = table.bytes[0];
    if (name === undefined || size === undefined) return Promise.reject(new DatabaseError('price_stats lists no file'));
    if (!file) {
      const opening = open.then((openFile) => openFile(source.blob(name, size)));
      opening.catch(() => (file = null));
      file = opening;
    }
    return file;
  }

  /** `read` over the file, opened once. @throws SourceError as read, DatabaseError naming the file when it cannot be decoded */
  async function opened<T>(read: (f: RowGroupFile) => Promise<T>): Promise<T> {
    try {
      return await read(await fileOf());
    } catch (e) {
      if (e instanceof SourceError) throw e;
      throw new DatabaseError(`cannot decode ${table.files[0]}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * Reads row group `rg` and appends it, through a scratch table (the file's Arrow types need not be
   * the table's). @throws SourceError as read, DatabaseError naming the file when it cannot be decoded
   */
  async function load(rg: number): Promise<void> {
    await opened((f) => withRowGroups(db, f, 'price_stats_load', [rg], () =>
      db.exec(new SqlFragment(`INSERT INTO price_stats (${columns}) SELECT ${columns} FROM price_stats_load`, []))));
    done.add(rg);
  }

  const needed = (need: StatsNeed): number[] => rowGroupsOf(table.period_index, table.stats_snapshots, need);

  // `first`'s row groups come before any other: the table's rows begin with them whoever asks
  // first, the boot or a request, as when the boot loaded them before any request, so that a sum
  // over the rows (whose last bit follows their order) does not depend on when a screen asked.
  const firstGroups = first ? needed(first) : [];
  return {
    async ensure(need) {
      const waits: Promise<void>[] = [];
      for (const rg of [...firstGroups, ...needed(need)]) {
        let p = started.get(rg);
        if (!p) {
          p = queue.then(() => load(rg));
          queue = p.catch(() => {});
          started.set(rg, p);
          p.catch(() => started.delete(rg));
        }
        waits.push(p);
      }
      await Promise.all(waits);
    },
    open: () => opened(() => Promise.resolve()),
    holds: (need) => needed(need).every((rg) => done.has(rg)),
    loadedGroups: () => done.size,
    totalGroups: () => table.period_index.length,
  };
}
