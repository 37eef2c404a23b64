/**
 * The converter's first stage, `ingest` (docs/converter.md, "Two stages"): one planned in-network
 * file (plan-files.ts) -> its source partition in the store (source-store.ts): the file is
 * streamed through the parser threads into a working database of its own (spool.ts), its remote
 * provider references fetched, and the raw tables written as Parquet with a record of the file
 * (identity, header, problems). The second stage (index.ts) builds the dataset from partitions.
 */
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { monthOf } from '../plan/snapshot';
import { MrfReadError } from '../../mrf/types';
import { ProblemLog } from '../common/problems';
import { openSpool, type Spool } from '../spool/spool';
import type { SpoolHost } from '../spool/spool-host';
import type { ParsePool, SourceDone } from './parse-pool';
import { readSource, type ReadSourceResult } from './read-source';
import { openSources, type OpenedFile } from './open-sources';
import { makeProgress } from '../common/progress';
import type { FetchPolicy } from '../plan/fetch-policy';
import type { PlannedFile } from '../plan/plan-files';
import type { RemoteReferenceResolver } from './remote-references';
import { spoolRemoteGroups, type RemoteOutcome } from './spool-remote-groups';
import { unsignedLocation } from '../plan/plan-filter';
import { findPartitions, partitionDir, sameIdentity, sameSettings, sourceKey, writePartition,
  type IdentityCheck, type IngestSettings, type PartitionRecord, type PartitionSource, type StoredPartition } from '../store/source-store';
import { PARTITION_FORMAT, PARTITION_VERSION } from '../store/source-store';
import { checkPartition, damageOf } from '../store/partition-check';

/** What ingesting needs of the run. */
export interface IngestContext {
  /** The store's directory. */
  store: string;
  pool: ParsePool;
  /** The DuckDB instance the spool of each file is attached to. */
  spools: SpoolHost;
  billingCodes?: ReadonlySet<string>;
  settings: IngestSettings;
  policy: FetchPolicy;
  /** Fetches remote provider references; null when they are not fetched. */
  remote: RemoteReferenceResolver | null;
  splitBytes?: number;
  /** A directory for the working files (spool CSV, a spooled archive), removed by the caller. */
  workDir: string;
  quiet: boolean;
  log: (line: string) => void;
  /** Where a warning goes (a partition ingested again because its files are damaged); default `log('warning: ...')`. */
  warn?: (message: string) => void;
}

/** Parser-thread source ids are unique in the process: the pool keys its per-source state on them. */
let nextPoolSource = 0;

/**
 * Loads what the parser threads spooled for source `sourceId` into the raw tables, then deletes
 * the files; drops what a key written twice superseded (JSON keeps a key's last value;
 * ReadSourceResult): the items of a first `in_network` and their prices, the groups of a first
 * `provider_references`, the rates of a split item's first `negotiated_rates` (its last array's
 * rates numbered from 0 then, as a parse numbers them). Returns how many items and price rows it dropped.
 */
async function loadSpooled(spool: Spool, sourceId: number, result: ReadSourceResult): Promise<{ items: number; priceRows: number }> {
  for (const d of result.spooled) {
    const prices = d.files.raw_prices ?? [];
    const values = d.files.raw_values ?? [];
    const shapes = d.files.raw_shapes ?? [];
    await spool.loadPrices({ prices, values, shapes, valueCodes: d.valueCodes, shapeCodes: d.shapeCodes });
    await Promise.all([...prices, ...values, ...shapes].map((f) => unlink(f)));
  }
  for (const table of ['raw_items', 'raw_groups'] as const) {
    const files = result.spooled.flatMap((d) => d.files[table] ?? []);
    await spool.load(table, files);
    await Promise.all(files.map((f) => unlink(f)));
  }
  if (result.supersededRefs > 0) await spool.con.run(`DELETE FROM raw_groups WHERE source_id = ${sourceId} AND ref_index < ${result.supersededRefs}`);
  let priceRows = 0;
  for (const [item, n] of result.supersededRates) {
    const where = `WHERE source_id = ${sourceId} AND item_id = ${item}`;
    priceRows += (await spool.con.run(`DELETE FROM raw_price_rows ${where} AND rate_index < ${n}`)).rowsChanged;
    await spool.con.run(`UPDATE raw_price_rows SET rate_index = rate_index - ${n} ${where}`);
  }
  if (result.supersededItems === 0) return { items: 0, priceRows };
  const where = `WHERE source_id = ${sourceId} AND item_id < ${result.supersededItems}`;
  const items = await spool.con.run(`DELETE FROM raw_items ${where}`);
  const prices = await spool.con.run(`DELETE FROM raw_price_rows ${where}`);
  return { items: items.rowsChanged, priceRows: priceRows + prices.rowsChanged };
}

/** Where the parser threads reported each remote group (path, offset), by provider_group_id. */
type RemoteSites = Map<string, { path: string; offset: number }>;

/**
 * Takes the threads' `unresolved_remote_reference` problems ("not fetched") out of `done`, since
 * the references are about to be fetched; returns where each group was declared.
 */
function takeRemoteProblems(done: SourceDone[]): RemoteSites {
  const sites: RemoteSites = new Map();
  for (const d of done) {
    delete d.counts.unresolved_remote_reference;
    d.kept = d.kept.filter((p) => {
      if (p.code !== 'unresolved_remote_reference') return true;
      const id = /^provider group (\S+) is remote/.exec(p.message)?.[1];
      if (id !== undefined) sites.set(id, { path: p.path, offset: p.offset });
      return false;
    });
  }
  return sites;
}

/** Records the failures and remote-file problems of one source; returns its unresolved count. */
function reportRemote(url: string, outcome: RemoteOutcome, sites: RemoteSites, problems: ProblemLog): number {
  const where = (id: string): { path: string; offset: number } =>
    sites.get(id) ?? { path: `$.provider_references[?(@.provider_group_id==${id})]`, offset: -1 };
  for (const f of outcome.failures) {
    problems.add({
      file: url,
      // a location that is not http(s) is never fetched: the same code as in a table of contents
      code: f.refused ? 'refused_location' : 'unresolved_remote_reference',
      message: `provider group ${f.provider_group_id}: ${f.location}: ${f.reason}; its rates are unresolved`,
      ...where(f.provider_group_id),
    });
  }
  for (const { group, problem } of outcome.problems) {
    problems.add({
      file: url,
      code: problem.code,
      message: `in provider-reference file ${group.location} (group ${group.provider_group_id}) at ${problem.path}: ${problem.message}`,
      ...where(group.provider_group_id),
    });
  }
  return outcome.failures.length;
}

/**
 * Takes source `sourceId` (`url`, of planned `file`) from what readSource gave into the file's
 * working database: its spooled rows, its problems, its remote provider references (fetched
 * unless `c.remote` is null); returns its partition entry.
 * @throws when the source has no snapshot (neither the catalog nor `last_updated_on` gives one).
 */
async function spoolSource(c: IngestContext, spool: Spool, problems: ProblemLog, work: string, url: string, file: PlannedFile,
  sourceId: number, result: ReadSourceResult): Promise<PartitionSource> {
  const dropped = await loadSpooled(spool, sourceId, result);
  for (const p of result.problems) problems.add({ file: url, ...p });
  const sites = c.remote ? takeRemoteProblems(result.spooled) : new Map();
  for (const d of result.spooled) problems.addCounted(url, d.kept, d.counts);
  let unresolvedRefs: number;
  let remoteNote: string;
  if (c.remote) {
    const outcome = await spoolRemoteGroups(spool, sourceId, c.remote, path.join(work, 'remote'));
    unresolvedRefs = reportRemote(url, outcome, sites, problems);
    remoteNote = `${outcome.used + outcome.unused} remote: ${outcome.resolved} fetched, ${unresolvedRefs} unresolved, ${outcome.unused} named by no rate`;
  } else {
    const r = await spool.con.runAndReadAll(`SELECT count(DISTINCT provider_group_id) FROM raw_groups
      WHERE source_id = ${sourceId} AND remote_location IS NOT NULL AND provider_id IS NULL`);
    unresolvedRefs = Number(r.getRows()[0]?.[0] ?? 0);
    remoteNote = `${unresolvedRefs} remote, not fetched`;
  }
  const h = result.header;
  const snapshot = file.snapshot ?? monthOf(h.last_updated_on);
  if (!snapshot) {
    throw new Error(`${url}: no snapshot: the catalog gives none and last_updated_on '${h.last_updated_on}' is not a date`);
  }
  const sum = (k: 'items' | 'priceRows' | 'providerReferences'): number =>
    result.spooled.reduce((a, d) => a + d[k], 0) - (k === 'providerReferences' ? 0 : dropped[k]);
  c.log(`${url}: ${sum('items')} items, ${result.skippedItems} skipped by the filter, ${sum('priceRows')} rate rows, ` +
    `${sum('providerReferences')} provider references (${remoteNote}), ${(result.jsonBytes / 1e6).toFixed(1)} MB JSON`);
  return {
    url,
    snapshot,
    reporting_entity_name: h.reporting_entity_name,
    ...(h.reporting_entity_type !== undefined ? { reporting_entity_type: h.reporting_entity_type } : {}),
    last_updated_on: h.last_updated_on,
    version: h.version,
    bytes: result.inputBytes,
    sha256: result.sha256,
    unresolved_provider_references: unresolvedRefs,
    counts: {
      items: sum('items'), skipped_items: result.skippedItems, rate_rows: sum('priceRows'),
      provider_references: sum('providerReferences'), json_bytes: result.jsonBytes,
    },
  };
}

/**
 * Whether planned `file` must be read: the store's partition of it when one was made under the
 * run's settings, the file is unchanged (source-store.ts sameIdentity) and the partition's files
 * match its record (partition-check.ts checkPartition), else null. A partition whose files do not
 * match is not used: a warning names it and the file (`c.warn`), and the file is read again.
 * @throws on an S3 error while checking a partition in a bucket.
 */
export async function reusablePartition(c: Pick<IngestContext, 'store' | 'settings' | 'policy' | 'log' | 'warn'>, file: PlannedFile):
  Promise<(StoredPartition & { by: IdentityCheck }) | null> {
  for (const found of await findPartitions(c.store, file)) {
    if (!sameSettings(found.record.settings, c.settings)) continue;
    const { same, by } = await sameIdentity(found.record.identity, file, c.policy);
    if (!same) continue;
    const damage = await checkPartition(found);
    if (!damage) return { ...found, by };
    const message = `${damageOf(found, damage)}: ${file.url} is read again`;
    if (c.warn) c.warn(message);
    else c.log(`warning: ${message}`);
  }
  return null;
}

/**
 * Ingests planned `file` into its partition (replacing an older one) and returns it.
 * A source of the file that cannot be read is skipped when the file came from a table of contents
 * (its reason in the partition's `failed_files`); a file none of whose sources could be read
 * writes no partition.
 * @throws MrfReadError naming the file and byte offset when it cannot be opened or read (for a
 *   file the catalog names directly, also when one of its sources cannot); Error for a source
 *   without snapshot or when the partition cannot be written.
 */
export async function ingestFile(c: IngestContext, file: PlannedFile): Promise<StoredPartition> {
  const work = await mkdtemp(path.join(c.workDir, 'ingest-'));
  let spool: Spool | null = null;
  try {
    const progress = makeProgress(file.url, c.quiet);
    let opened: OpenedFile;
    try {
      opened = await openSources(file, c.policy, work, (done, total) => progress.update(done, total));
    } finally {
      progress.stop();
    }
    const problems = new ProblemLog();
    const sources: PartitionSource[] = [];
    spool = await openSpool(work, { host: c.spools });
    let archive: { bytes: number; sha256: string } | null = null;
    const poolIds: number[] = [];
    /** Why each source that could not be read failed. */
    const errors: Error[] = [];
    try {
      for (const input of opened.sources) {
        const poolId = nextPoolSource++;
        const shown = makeProgress(input.url, c.quiet);
        let result: ReadSourceResult;
        try {
          result = await readSource(input.name, input.open(), c.pool, {
            sourceId: poolId, dir: work, billingCodes: c.billingCodes, splitBytes: c.splitBytes, archive: input.archive,
            inputBytes: input.size ?? undefined, onProgress: (done, total) => shown.update(done, total),
          });
        } catch (e) {
          shown.stop();
          // what its threads spooled is dropped
          for (const d of await c.pool.finish(poolId)) await Promise.all(Object.values(d.files).flat().map((f) => unlink(f)));
          // docs/converter.md (What it reads, and what it does with bad input): a file reached through a table of contents
          // that cannot be read is recorded and the run goes on
          if (!file.tableOfContents) throw e;
          errors.push(e as Error);
          problems.failedFiles.push({ file: input.url, reason: (e as Error).message });
          c.log(`skipped ${input.url}: ${(e as Error).message}`);
          continue;
        }
        shown.stop();
        archive ??= input.archive ?? null;
        if (input.note) problems.add({ file: input.url, code: input.note.code, path: '$', offset: 0, message: input.note.message });
        // the rows carry the pool's id until the partition is written (exportPartition numbers them from 0)
        poolIds.push(poolId);
        sources.push(await spoolSource(c, spool, problems, work, input.url, file, poolId, result));
      }
    } finally {
      await opened.close();
    }
    if (sources.length === 0) {
      if (errors.length === 1) throw errors[0]!;
      throw new MrfReadError(file.url, 0, `none of its ${errors.length} sources could be read (${problems.failedFiles.map((f) => f.reason).join('; ')})`);
    }
    const first = sources[0]!;
    const record: Omit<PartitionRecord, 'files'> = {
      format: PARTITION_FORMAT,
      version: PARTITION_VERSION,
      insurer_id: file.insurerId,
      snapshot: file.snapshot ?? first.snapshot,
      url: file.url,
      identity: {
        unsigned_url: unsignedLocation(file.url),
        ...opened.validators,
        sha256: archive?.sha256 ?? first.sha256,
        bytes: archive?.bytes ?? first.bytes,
      },
      settings: c.settings,
      ingested_at: new Date().toISOString(),
      sources,
      problems: { total: problems.total, counts: problems.counts, kept: problems.kept, failed_files: problems.failedFiles },
    };
    const dir = partitionDir(c.store, file.insurerId, record.snapshot, sourceKey(file.url));
    const s = spool;
    return { dir, record: await writePartition(dir, record, (tmp) => s.exportPartition(tmp, poolIds)) };
  } finally {
    await spool?.close();
    await rm(work, { recursive: true, force: true });
  }
}
