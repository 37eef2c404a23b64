/**
 * The converter (docs/converter.md): its two stages over a catalog. ingestCatalog runs the first
 * (ingest/: every planned file into its partition of the store, store/); convertCatalog runs both,
 * the ingest here or by workers through BullMQ (ingest/queue.ts), then the build
 * (build/build-dataset.ts), whose dataset is swapped into place atomically.
 */
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildDataset, type BuildContext } from './build/build-dataset';
import { checkTableInputs } from './build/build-tables';
import { PhaseTimer } from './common/timings';
import { ingestFile, reusablePartition, type IngestContext } from './ingest/ingest-file';
import { ParsePool } from './ingest/parse-pool';
import { openSpoolHost } from './spool/spool-host';
// BullMQ and ioredis (about 0.3 s to load) only for a run with --redis: queue.ts is imported there
import type { IngestJobData } from './ingest/queue';
import { RemoteReferenceResolver } from './ingest/remote-references';
import { makeTempSibling, recoverStale } from './common/atomic-dir';
import { assertNoInput, listedInputs, OutputRefused, prepareOutput } from './build/output/output-guard';
import { namedWriteFailure, writingTo } from './common/write-errors';
import { planFiles, type PlannedFile, type ReadingPlan } from './plan/plan-files';
import { defaultStore, startRun, type ConvertOptions, type ConvertResult, type Run, type UsedPartition } from './run';
import { isS3Store } from './store/s3-store';
import { resolveStore } from './store/source-store';
import { partitionForBuild } from './store/partition-check';

export { CONVERTER_VERSION, defaultStore, type ConvertOptions, type ConvertResult } from './run';

/**
 * The first stage over a plan: for each file, the store's partition when it is unchanged
 * (ingest-file.ts reusablePartition), else a new ingest through `c`; for the build stage alone,
 * the store's partition made with the run's settings, its files checked against its record, and
 * nothing read or ingested (`c` null; partition-check.ts partitionForBuild). A file reached through a table of
 * contents that cannot be read (or has no partition) goes to `failed_files`; its entry is null.
 * @throws for a file the catalog names directly that cannot be read or has no partition (the
 *   reason names the setting that differs); DamagedPartitionError for a damaged partition in a build alone.
 */
async function partitionsOf(run: Run, plan: ReadingPlan, store: string, c: IngestContext | null): Promise<Array<UsedPartition | null>> {
  const { problems, log } = run;
  const out: Array<UsedPartition | null> = [];
  for (const file of plan.files) {
    if (!c) {
      const found = await partitionForBuild(store, file, run.settings);
      if (!('missing' in found)) {
        out.push({ ...found, reused: true });
        continue;
      }
      const reason = `not ingested: ${found.missing} (run ingest first)`;
      if (!file.tableOfContents) throw new Error(`${file.url}: ${reason}`);
      problems.failedFiles.push({ file: file.url, reason });
      out.push(null);
      continue;
    }
    const reuse = await reusablePartition(c, file);
    if (reuse) {
      log(`${file.url}: unchanged (${reuse.by === 'sha256' ? 'SHA-256' : reuse.by === 'etag' ? 'ETag' : 'Last-Modified and size'}), partition reused`);
      out.push({ dir: reuse.dir, record: reuse.record, reused: true });
      continue;
    }
    try {
      out.push({ ...(await ingestFile(c, file)), reused: false });
    } catch (e) {
      // docs/converter.md (What it reads, and what it does with bad input): a file reached through a table of contents that cannot be read is
      // recorded and the run goes on
      if (!file.tableOfContents) throw e;
      problems.failedFiles.push({ file: file.url, reason: (e as Error).message });
      log(`skipped ${file.url}: ${(e as Error).message}`);
      out.push(null);
    }
  }
  return out;
}

/** What `ingest` alone did. */
export interface IngestResult {
  store: string;
  ingested: number;
  reused: number;
  /** Files that could not be read (reached through a table of contents), with the reason. */
  failed: Array<{ file: string; reason: string }>;
}

/**
 * The first stage alone (`npm run ingest`): every planned file of the catalog (or of
 * `options.plan`) into its partition in `store`, unchanged ones reused. No dataset is written.
 * @throws as convertCatalog for an unreadable file the catalog names directly; partitions written
 *   before it stay in the store (a next run reuses them).
 */
export async function ingestCatalog(catalogPath: string, store: string, options: ConvertOptions = {}): Promise<IngestResult> {
  const run = await startRun(catalogPath, options);
  const remote = options.remoteReferences === false ? null : new RemoteReferenceResolver(run.policy, options.referenceCacheDir);
  // a killed run's work directory goes first (atomic-dir.ts: only those of dead processes); a
  // bucket's run works in the system's temp directory
  const workBase = isS3Store(store) ? path.join(os.tmpdir(), 'compete-ingest') : path.join(path.resolve(store), 'work');
  await recoverStale(workBase);
  const workDir = await makeTempSibling(workBase);
  const pool = new ParsePool(options.jobs ?? os.availableParallelism(), run.billingCodes);
  try {
    const timer = options.timer ?? new PhaseTimer();
    const plan = run.fromPlan ?? (await timer.time('plan the files', () => planFiles(run.catalog, run.baseDir, run.problems, run.policy, workDir)));
    const resolved = resolveStore(store);
    const parts = await timer.time('ingest', () => ingestHere(run, options, plan, resolved, pool, remote, workDir));
    const used = parts.filter((p): p is UsedPartition => p !== null);
    const result = { store: resolved, ingested: used.filter((p) => !p.reused).length, reused: used.filter((p) => p.reused).length, failed: run.problems.failedFiles };
    run.log(`${result.ingested} files ingested, ${result.reused} unchanged and reused, ${result.failed.length} unreadable, in ${resolved}`);
    return result;
  } finally {
    await pool.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * The partitions of `plan`'s files in `store`: those missing or out of date ingested in this
 * process by `pool`'s threads, each file's spool attached to one DuckDB instance opened for the
 * files (spool-host.ts) and closed after them; with no pool, the stored partitions checked only.
 */
async function ingestHere(run: Run, options: ConvertOptions, plan: ReadingPlan, store: string, pool: ParsePool | null,
  remote: RemoteReferenceResolver | null, workDir: string): Promise<Array<UsedPartition | null>> {
  if (!pool) return partitionsOf(run, plan, store, null);
  const spools = await openSpoolHost(workDir);
  try {
    return await partitionsOf(run, plan, store, {
      store, pool, spools, billingCodes: run.billingCodes, settings: run.settings, policy: run.policy, remote,
      splitBytes: options.splitBytes, workDir, quiet: options.quiet === true, log: run.log,
      warn: (w) => {
        run.problems.warnings.push(w);
        run.log(`warning: ${w}`);
      },
    });
  } finally {
    spools.close();
  }
}

/**
 * Converts the catalog at `catalogPath` into the dataset directory `outDir`: both stages, ingest
 * (the files whose partition in the store is missing or out of date) and build; with
 * `options.buildOnly`, the build alone from the partitions already in the store.
 * @throws Error with a one-line reason (naming the file and byte offset for an unreadable file)
 *   when no dataset was written; the previous `outDir` is then untouched. OutputRefused
 *   (output-guard.ts) before any source is read when `outDir` is not absent, empty or a dataset,
 *   or is or holds an input or the store.
 */
export async function convertCatalog(catalogPath: string, outDir: string, options: ConvertOptions = {}): Promise<ConvertResult> {
  const run = await startRun(catalogPath, options);
  const { catalog, baseDir, problems, log } = run;
  const target = await prepareOutput(outDir, catalogPath, catalog, baseDir);
  await checkTableInputs(catalog, baseDir);
  const store = resolveStore(options.store ?? defaultStore(target));
  if (!isS3Store(store)) assertStoreOutside(outDir, target, store);
  const remote = options.remoteReferences === false ? null : new RemoteReferenceResolver(run.policy, options.referenceCacheDir);
  const tmpDir = await makeTempSibling(target);
  const workDir = path.join(tmpDir, '.work');
  // set by the build, read by the clean-up of a failed run
  const held: BuildContext['held'] = { spool: null, firstView: null };
  // the parser threads run here only when this process ingests
  const local = options.buildOnly !== true && options.redis === undefined;
  const pool = local ? new ParsePool(options.jobs ?? os.availableParallelism(), run.billingCodes) : null;
  const timer = options.timer ?? new PhaseTimer();
  const build = (plan: ReadingPlan, parts: Array<UsedPartition | null>): Promise<ConvertResult> =>
    buildDataset({ run, options, outDir, target, tmpDir, workDir, timer, held }, plan, parts);
  try {
    await writingTo(workDir, () => mkdir(workDir, { recursive: true }));
    const plan = run.fromPlan ?? (await timer.time('plan the files', () => planFiles(catalog, baseDir, problems, run.policy, workDir)));
    await assertNoInput(outDir, target, listedInputs(plan.files));
    if (options.redis !== undefined && options.buildOnly !== true) {
      const { ingestDistributed } = await import('./ingest/queue.js');
      return await ingestDistributed(options.redis, plan.files, (file) => ingestJob(run, options, store, file), { quiet: options.quiet === true, log },
        async ({ parts, failures }) => {
          for (const f of failures) {
            // as in one process: a file the catalog names directly must be read; one of a table of contents is recorded
            if (!plan.files.find((x) => x.url === f.file)?.tableOfContents) throw new Error(`${f.file}: ${f.reason}`);
            problems.failedFiles.push(f);
            log(`failed for good ${f.file}: ${f.reason}`);
          }
          return build(plan, parts);
        });
    }
    const parts = await timer.time(pool ? 'ingest' : 'check the partitions', () => ingestHere(run, options, plan, store, pool, remote, workDir));
    await pool?.close();
    return await build(plan, parts);
  } catch (e) {
    await pool?.close();
    await held.firstView?.dispose();
    await held.spool?.close();
    await rm(tmpDir, { recursive: true, force: true });
    throw namedWriteFailure(e, [{ what: 'the new dataset and its work directory', path: tmpDir }, { what: 'the store', path: store }]);
  }
}

/** The ingest job of planned `file` for the workers (queue.ts). */
function ingestJob(run: Run, options: ConvertOptions, store: string, file: PlannedFile): IngestJobData {
  const { fetch: _fetch, ...fetchPolicy } = run.policy;
  return {
    file, store, settings: run.settings,
    billingCodes: run.billingCodes ? [...run.billingCodes] : null,
    remoteReferences: options.remoteReferences !== false,
    ...(options.referenceCacheDir !== undefined ? { referenceCacheDir: path.resolve(options.referenceCacheDir) } : {}),
    fetchPolicy,
    ...(options.splitBytes !== undefined ? { splitBytes: options.splitBytes } : {}),
  };
}

/**
 * Refuses a store that is the dataset directory or inside it (the swap would delete it).
 * @throws OutputRefused naming both.
 */
function assertStoreOutside(outDir: string, target: string, store: string): void {
  const rel = path.relative(target, store);
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) {
    throw new OutputRefused(`--out ${outDir} holds the store ${store}: the store must be outside the dataset directory`);
  }
}
