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
import { COLUMNS, isMonthScope, type ManifestTable, type StatsScope, type PeriodIndexEntry, type StatsPart, type StatsSnapshot } from '../../contract/files/dataset';
import { chosenSnapshots } from '../../contract/rules/metrics';
import type { ByteSource, ReadRowGroups, RowGroupFile } from '../platform';
import type { Database } from './database';
import { DatabaseError, SourceError } from './errors';
import { withRowGroups } from './load';
import { joinSql, sql, SqlFragment } from './sql';

/**
 * The DuckDB type of each column of `price_stats`, as the converter creates them; the columns and
 * their order are contract/files/dataset.ts COLUMNS.price_stats', so a new column there is a type error
 * here until it has its type.
 */
const STATS_TYPES: Record<(typeof COLUMNS.price_stats)[number], 'VARCHAR' | 'DOUBLE' | 'INTEGER' | 'BOOLEAN'> = {
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
  p10: 'DOUBLE',
  p25: 'DOUBLE',
  p75: 'DOUBLE',
  p90: 'DOUBLE',
  derived: 'BOOLEAN',
};

/**
 * What a request reads of `price_stats` (pricing-core.ts): months M, one scope, and national rows,
 * per-state rows or both.
 */
export interface StatsNeed {
  months: readonly string[];
  /**
   * The rows' scope: `market` (each insurer's chosen snapshot), `billed` (the same, at billing
   * providers), `shared`, `shared_billed` or `market_band` (each month's own rows: contract/files/dataset.ts isMonthScope).
   */
  scope: StatsScope;
  /** `national`: state 'ALL' only; `states`: the per-state rows only; `all`: both. */
  states: 'national' | 'states' | 'all';
  /** With `states` 'states': this state's rows only (a state code). */
  state?: string;
}

/** The part of `price_stats` in the worker's database. */
export interface StatsLoader {
  /** Loads the rows `need` reads, those not loaded yet; settles once they are in. @throws SourceError, DatabaseError */
  ensure(need: StatsNeed): Promise<void>;
  /** Whether every row `need` reads is in (pricing-core.ts checks it before reading price_stats). */
  holds(need: StatsNeed): boolean;
  /**
   * Reads the file's footer (once): the boot waits for it, so that a file that cannot be decoded
   * fails the boot as a table loaded whole does. @throws SourceError, DatabaseError naming the file
   */
  open(): Promise<void>;
  /** Row groups read from so far (some of their rows, or all), and in all (equal for a table loaded whole). */
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

/** The rows of one run (StatsPart) in one row group that a need reads: all of them, or one state's (`state`). */
export interface RunLoad {
  row_group: number;
  part: StatsPart;
  state?: string;
}

/**
 * The runs `need` reads, by row group ascending, in file order within one: for each month M, the
 * market rows of each insurer's latest snapshot at or before M (docs/methodology.md, Rows that
 * count), or M's own shared rows; national, per-state or both as asked, and of a per-state run only
 * the row groups whose states take in `need.state` when it names one. Pure; `snapshots` as the
 * manifest lists them.
 */
export function runsOf(index: readonly PeriodIndexEntry[], snapshots: readonly StatsSnapshot[], need: StatsNeed): RunLoad[] {
  const periods = new Set<string>();
  for (const month of need.months) {
    if (isMonthScope(need.scope)) {
      periods.add(month);
      continue;
    }
    for (const p of chosenSnapshots(snapshots, month).values()) periods.add(p);
  }
  const scope = need.scope;
  const state = need.states === 'states' ? need.state : undefined;
  const out: RunLoad[] = [];
  for (const g of [...index].sort((a, b) => a.row_group - b.row_group)) {
    for (const part of g.parts) {
      if (part.scope !== scope || !periods.has(part.period)) continue;
      if (need.states !== 'all' && part.national !== (need.states === 'national')) continue;
      if (state === undefined) out.push({ row_group: g.row_group, part });
      else if (!part.states || (part.states[0] <= state && state <= part.states[1])) out.push({ row_group: g.row_group, part, state });
    }
  }
  return out;
}

/** A run of a row group, by its keys. */
const runKey = (r: RunLoad): string => `${r.row_group}|${r.part.period}|${r.part.scope}|${r.part.national ? 1 : 0}`;

/** `price_stats` read by month: one file, its period index and snapshots (statsByMonth). */
type StatsTable = ManifestTable & { period_index: PeriodIndexEntry[]; stats_snapshots: StatsSnapshot[] };

/**
 * Opens the one file of `table` with `open` (parquet-wasm reads its footer). The boot starts this
 * before DuckDB is up, since it needs no database, and hands it to createStatsLoader.
 * Rejects with DatabaseError when the manifest lists no file, or as `open` rejects.
 */
export async function openStatsFile(table: StatsTable, source: ByteSource, open: Promise<ReadRowGroups>): Promise<RowGroupFile> {
  const name = table.files[0];
  const size = table.bytes[0];
  if (name === undefined || size === undefined) throw new DatabaseError('price_stats lists no file');
  return (await open)(source.blob(name, size));
}

/**
 * Creates the empty `price_stats` table and returns its loader by month over the table's one file;
 * every `ensure` loads the runs of `first` (the boot's: the latest month's national rows) before its
 * own. Rows go in run by run (a whole run of a row group, or one state's rows of it), each once:
 * a whole run loaded after some of its states leaves those out. `opening`: the file already being
 * opened (openStatsFile); when it fails, the next read opens the file again.
 * @throws DatabaseError when the table cannot be created.
 */
export function createStatsLoader(
  db: Database,
  table: StatsTable,
  source: ByteSource,
  open: Promise<ReadRowGroups>,
  first?: StatsNeed,
  opening?: Promise<RowGroupFile>,
): StatsLoader {
  db.exec(new SqlFragment(`CREATE TABLE price_stats (${COLUMNS.price_stats.map((c) => `${c} ${STATS_TYPES[c]}`).join(', ')})`, []));
  const columns = COLUMNS.price_stats.join(', ');
  /** Loads started, by runKey (a whole run) or runKey|state (one state of it). */
  const started = new Map<string, Promise<void>>();
  /** Runs whose every row is in, by runKey. */
  const whole = new Set<string>();
  /** The states in of runs not whole, by runKey. */
  const statesIn = new Map<string, Set<string>>();
  const touched = new Set<number>();
  /** The file's opening; a failed one is dropped, so that the next read opens the file again. */
  let file: Promise<RowGroupFile> | null = null;
  const keep = (p: Promise<RowGroupFile>): Promise<RowGroupFile> => {
    file = p;
    p.catch(() => {
      if (file === p) file = null;
    });
    return p;
  };
  if (opening) keep(opening);
  /** The last load started: one row group at a time, so its decoded copy alone is in memory beside the table. */
  let queue: Promise<void> = Promise.resolve();

  function fileOf(): Promise<RowGroupFile> {
    return file ?? keep(openStatsFile(table, source, open));
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

  /** Whether every row of `r` is in: its whole run, or its state of the run. */
  function inAlready(r: RunLoad): boolean {
    return whole.has(runKey(r)) || (r.state !== undefined && statesIn.get(runKey(r))?.has(r.state) === true);
  }

  /** The rows of `r` not in yet, as a condition over price_stats' columns. */
  function runRows(r: RunLoad): SqlFragment {
    const run = sql`coalesce(month, snapshot) = ${r.part.period} AND scope = ${r.part.scope} AND state ${new SqlFragment(r.part.national ? '=' : '<>', [])} 'ALL'`;
    if (r.state !== undefined) return sql`(${run} AND state = ${r.state})`;
    const already = [...(statesIn.get(runKey(r)) ?? [])];
    return already.length === 0 ? sql`(${run})` : sql`(${run} AND state NOT IN (${already}))`;
  }

  /**
   * Reads row group `rg` and appends the rows of `runs` (all of that row group) in file order,
   * through a scratch table (the file's Arrow types need not be the table's).
   * @throws SourceError as read, DatabaseError naming the file when it cannot be decoded
   */
  async function load(rg: number, runs: readonly RunLoad[]): Promise<void> {
    const fresh = runs.filter((r) => !inAlready(r));
    if (fresh.length === 0) return;
    await opened((f) => withRowGroups(db, f, 'price_stats_load', [rg], () =>
      db.all(sql`INSERT INTO price_stats (${new SqlFragment(columns, [])}) SELECT ${new SqlFragment(columns, [])} FROM price_stats_load
        WHERE ${joinSql(fresh.map(runRows), ' OR ')}`)));
    touched.add(rg);
    for (const r of fresh) {
      const key = runKey(r);
      if (r.state === undefined) {
        whole.add(key);
        statesIn.delete(key);
      } else {
        const set = statesIn.get(key) ?? new Set<string>();
        statesIn.set(key, set.add(r.state));
      }
    }
  }

  const needed = (need: StatsNeed): RunLoad[] => runsOf(table.period_index, table.stats_snapshots, need);

  // `first`'s runs come before any other: the table's rows begin with them whoever asks first, the
  // boot or a request, as when the boot loaded them before any request, so that a sum over the rows
  // (whose last bit follows their order) does not depend on when a screen asked. A state's rows of
  // a run go in together, row group after row group, by the request that first asks for that state
  // or for the whole run: within a state, the table keeps the file's order.
  const firstRuns = first ? needed(first) : [];
  return {
    async ensure(need) {
      const waits: Promise<void>[] = [];
      let batch: RunLoad[] = [];
      const flush = (): void => {
        const runs = batch;
        batch = [];
        if (runs.length === 0) return;
        const p = queue.then(() => load(runs[0]!.row_group, runs));
        queue = p.catch(() => {});
        for (const r of runs) {
          const key = r.state === undefined ? runKey(r) : `${runKey(r)}|${r.state}`;
          started.set(key, p);
          p.catch(() => started.delete(key));
        }
        waits.push(p);
      };
      for (const r of [...firstRuns, ...needed(need)]) {
        if (inAlready(r)) continue;
        const going = started.get(runKey(r)) ?? (r.state === undefined ? undefined : started.get(`${runKey(r)}|${r.state}`));
        if (going) {
          waits.push(going);
          continue;
        }
        if (batch.length > 0 && batch[0]!.row_group !== r.row_group) flush();
        batch.push(r);
      }
      flush();
      await Promise.all(waits);
    },
    open: () => opened(() => Promise.resolve()),
    holds: (need) => needed(need).every(inAlready),
    loadedGroups: () => touched.size,
    totalGroups: () => table.period_index.length,
  };
}
