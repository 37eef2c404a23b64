/**
 * `price_stats` by month (docs/architecture.md, Statistics by month): the converter writes the
 * table sorted by period (a `shared` row's month, a `market` row's snapshot) with the range of
 * periods of every row group in the manifest (`period_index`) and the insurers' market snapshots
 * (`stats_snapshots`). The worker then reads, by range reads of the one Parquet file, only the row
 * groups a month M needs: each insurer's latest market snapshot at or before M (docs/methodology.md,
 * Rows that count) and M's shared rows. The boot loads the latest month's; another month loads when
 * a request asks for it, once per dataset. A dataset without the index loads the table whole at
 * boot (eagerStats), as before.
 */
import type { ManifestTable, PeriodIndexEntry, StatsSnapshot } from '../../contract/dataset';
import type { ByteSource, ReadRowGroups, RowGroupFile } from '../platform';
import type { Database } from './database';
import { DatabaseError, SourceError } from './errors';
import { SqlFragment, sql } from './sql';

/** Columns and DuckDB types of `price_stats` (contract/dataset.ts COLUMNS.price_stats, as the converter creates them). */
const STATS_TYPES = [
  ['snapshot', 'VARCHAR'],
  ['insurer_id', 'VARCHAR'],
  ['billing_code', 'VARCHAR'],
  ['billing_class', 'VARCHAR'],
  ['component', 'VARCHAR'],
  ['setting', 'VARCHAR'],
  ['state', 'VARCHAR'],
  ['median_rate', 'DOUBLE'],
  ['rate_count', 'INTEGER'],
  ['provider_count', 'INTEGER'],
  ['medicare_rate', 'DOUBLE'],
  ['scope', 'VARCHAR'],
  ['month', 'VARCHAR'],
] as const;

/** The months of `price_stats` in the worker's database. */
export interface StatsLoader {
  /**
   * Loads the row groups months `months` (`YYYY-MM`) need, those not loaded yet; settles once they
   * are in. @throws SourceError, DatabaseError
   */
  ensure(months: readonly string[]): Promise<void>;
  /** Whether every row group `months` need is in (pricing-core.ts checks it before reading price_stats). */
  holds(months: readonly string[]): boolean;
  /** Row groups loaded so far, and in all (equal for a table loaded whole). */
  loadedGroups(): number;
  totalGroups(): number;
}

/** The loader of a `price_stats` the boot loaded whole: every month is in. */
export function eagerStats(): StatsLoader {
  return { ensure: () => Promise.resolve(), holds: () => true, loadedGroups: () => 1, totalGroups: () => 1 };
}

/** Whether `table` (the manifest's `price_stats`) can be read by month: one file, its period index and snapshots. */
export function statsByMonth(table: ManifestTable): table is ManifestTable & { period_index: PeriodIndexEntry[]; stats_snapshots: StatsSnapshot[] } {
  return table.files.length === 1 && Array.isArray(table.period_index) && Array.isArray(table.stats_snapshots);
}

/** Whether value `x` lies in [min, max] (string order); false when either bound is null. */
const within = (x: string, min: string | null, max: string | null): boolean => min !== null && max !== null && min <= x && x <= max;

/**
 * The row groups month `month` needs: those whose snapshot range holds an insurer's chosen
 * snapshot (its latest at or before `month`), or whose month range holds `month` (shared rows).
 * Pure; `snapshots` as the manifest lists them.
 */
export function rowGroupsOfMonth(index: readonly PeriodIndexEntry[], snapshots: readonly StatsSnapshot[], month: string): number[] {
  const chosen = new Map<string, string>();
  for (const { insurer_id, snapshot } of snapshots) {
    const known = chosen.get(insurer_id);
    if (snapshot <= month && (known === undefined || snapshot > known)) chosen.set(insurer_id, snapshot);
  }
  const periods = [...new Set(chosen.values())];
  return index
    .filter((g) => within(month, g.min_month, g.max_month) || periods.some((p) => within(p, g.min_snapshot, g.max_snapshot)))
    .map((g) => g.row_group);
}

/**
 * Creates the empty `price_stats` table and returns its loader by month over the table's one file.
 * @throws DatabaseError when the table cannot be created.
 */
export function createStatsLoader(
  db: Database,
  table: ManifestTable & { period_index: PeriodIndexEntry[]; stats_snapshots: StatsSnapshot[] },
  source: ByteSource,
  open: Promise<ReadRowGroups>,
): StatsLoader {
  db.exec(new SqlFragment(`CREATE TABLE price_stats (${STATS_TYPES.map(([c, t]) => `${c} ${t}`).join(', ')})`, []));
  const columns = STATS_TYPES.map(([c]) => c).join(', ');
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

  /**
   * Reads row group `rg` and appends it, through a scratch table (the file's Arrow types need not be
   * the table's). @throws SourceError as read, DatabaseError naming the file when it cannot be decoded
   */
  async function load(rg: number): Promise<void> {
    let ipc: Uint8Array;
    try {
      ipc = await (await fileOf()).read([rg]);
    } catch (e) {
      if (e instanceof SourceError) throw e;
      throw new DatabaseError(`cannot decode ${table.files[0]}: ${e instanceof Error ? e.message : String(e)}`);
    }
    // synchronous from here: no other load interleaves with the scratch table
    db.insertArrowIpc('price_stats_load', ipc, false);
    try {
      db.exec(new SqlFragment(`INSERT INTO price_stats (${columns}) SELECT ${columns} FROM price_stats_load`, []));
    } finally {
      db.exec(sql`DROP TABLE IF EXISTS price_stats_load`);
    }
    done.add(rg);
  }

  const needed = (months: readonly string[]): Set<number> =>
    new Set(months.flatMap((m) => rowGroupsOfMonth(table.period_index, table.stats_snapshots, m)));

  return {
    async ensure(months) {
      const waits: Promise<void>[] = [];
      for (const rg of [...needed(months)].sort((a, b) => a - b)) {
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
    holds: (months) => [...needed(months)].every((rg) => done.has(rg)),
    loadedGroups: () => done.size,
    totalGroups: () => table.period_index.length,
  };
}
