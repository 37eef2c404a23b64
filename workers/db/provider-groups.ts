/**
 * `provider_groups` by source (docs/architecture.md, Provider groups by source): the converter
 * writes the table sorted by its sources' snapshot, then `source_id`, with the sources of every row
 * group in the manifest (`source_index`). The table holds a row per (group, provider) of every file
 * of every snapshot, the largest a deployment keeps (about 6 M rows at 12 monthly snapshots), while every request that
 * reads it reads the groups of one month's snapshots: Live Search, the rate rows behind a price,
 * a provider selection. So the worker creates the table empty and a request loads the row groups of
 * the sources it reads (`ensureMonths`), by range reads of the one file, each once per dataset. A
 * dataset without the index (an older converter) loads the table whole behind the first tables
 * (data-service.ts LATER_TABLES), as before.
 */
import { COLUMNS, type DatasetManifest, type ManifestTable, type SourceIndexEntry } from '../../contract/files/dataset';
import { chosenSnapshots } from '../../contract/rules/metrics';
import type { ByteSource, ReadRowGroups } from '../platform';
import type { Database } from './database';
import { openedFiles, rowGroupsOnce, withRowGroups } from './load';
import { SqlFragment } from './sql';

/**
 * The columns of `provider_groups` the worker holds, with their DuckDB types as the converter writes
 * them: those the endpoints read (a group's key, joined from `rates`, its provider, and its source).
 * The others (the group id, NPI and TIN, which `providers` carries per provider) are not read from
 * the file: they would take two thirds of a load's decode and insert time.
 */
const GROUP_TYPES = {
  provider_group_key: 'VARCHAR',
  source_id: 'INTEGER',
  provider_id: 'VARCHAR',
} as const satisfies Partial<Record<(typeof COLUMNS.provider_groups)[number], 'VARCHAR' | 'INTEGER'>>;

const GROUP_COLUMNS = Object.keys(GROUP_TYPES) as Array<keyof typeof GROUP_TYPES>;
const COLS = GROUP_COLUMNS.join(', ');

/** The part of `provider_groups` in the worker's database. */
export interface ProviderGroupsLoader {
  /**
   * Loads the groups of the sources chosen at each month of `months` (`YYYY-MM`): every insurer's
   * latest snapshot at or before it (docs/methodology.md, Rows that count), whatever a request
   * then narrows to; settles once they are in. @throws SourceError, DatabaseError
   */
  ensureMonths(months: readonly string[]): Promise<void>;
  /** Loads the groups of sources `sourceIds` (indices into the manifest's `sources`). @throws SourceError, DatabaseError */
  ensure(sourceIds: readonly number[]): Promise<void>;
  /** Row groups loaded so far, and in all (equal for a table loaded whole). */
  loadedGroups(): number;
  totalGroups(): number;
}

/** Whether `table` (the manifest's `provider_groups`) can be read by source: one file and its source index. */
export function groupsBySource(table: ManifestTable): table is ManifestTable & { source_index: SourceIndexEntry[] } {
  return table.files.length === 1 && Array.isArray(table.source_index);
}

/** The indices into `manifest.sources` of the sources chosen at any of `months` (contract/rules/metrics.ts chosenSnapshots). */
export function chosenSources(manifest: DatasetManifest, months: readonly string[]): number[] {
  const pairs = new Set<string>();
  for (const month of months) for (const [insurer, snapshot] of chosenSnapshots(manifest.sources, month)) pairs.add(`${insurer}|${snapshot}`);
  return manifest.sources.flatMap((s, id) => (pairs.has(`${s.insurer_id}|${s.snapshot}`) ? [id] : []));
}

/**
 * The loader of a `provider_groups` loaded whole behind the first tables: nothing to load. An
 * endpoint joining the table names it among the tables it reads (endpoint.ts `reads`) or waits for
 * every later table, so that dispatch waits for it before the endpoint runs; waiting here, inside a
 * running endpoint, would wait for the later tables' inserts, which wait for no endpoint to be running.
 */
export function eagerProviderGroups(): ProviderGroupsLoader {
  return { ensureMonths: () => Promise.resolve(), ensure: () => Promise.resolve(), loadedGroups: () => 1, totalGroups: () => 1 };
}

/**
 * Creates the empty `provider_groups` table (GROUP_TYPES' columns) in `db` and returns its loader
 * over the table's one file (`table`, groupsBySource) of `manifest`.
 * @throws DatabaseError
 */
export function createProviderGroupsLoader(
  db: Database, manifest: DatasetManifest, table: ManifestTable & { source_index: SourceIndexEntry[] }, source: ByteSource, open: Promise<ReadRowGroups>,
): ProviderGroupsLoader {
  const defs = GROUP_COLUMNS.map((c) => `${c} ${GROUP_TYPES[c]}`).join(', ');
  db.exec(new SqlFragment(`CREATE TABLE provider_groups (${defs})`, []));
  const index = table.source_index;
  const fileOf = openedFiles(table, source, open);
  let loaded = 0;
  const ensureGroups = rowGroupsOnce(async (file, rowGroups) => {
    await withRowGroups(db, await fileOf(file), 'provider_groups_load', rowGroups, () =>
      db.exec(new SqlFragment(`INSERT INTO provider_groups (${COLS}) SELECT ${COLS} FROM provider_groups_load`, [])), GROUP_COLUMNS);
    loaded += rowGroups.length;
  });

  const loader: ProviderGroupsLoader = {
    ensure(sourceIds: readonly number[]): Promise<void> {
      const wanted = new Set(sourceIds);
      // one read, in file order, for the row groups nobody has started
      return ensureGroups(index.filter((e) => e.source_ids.some((id) => wanted.has(id))).map((e) => ({ file: 0, row_group: e.row_group })));
    },
    ensureMonths: (months) => loader.ensure(chosenSources(manifest, months)),
    loadedGroups: () => loaded,
    totalGroups: () => index.length,
  };
  return loader;
}
