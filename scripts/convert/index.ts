/**
 * The converter (docs/converter.md): catalog -> streaming read of every in-network file -> working
 * DuckDB -> dataset tables -> Parquet + manifest.json + report.json, swapped into place atomically.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetManifest, ManifestSource } from '../../contract/dataset';
import type { Catalog } from '../../contract/catalog';
import os from 'node:os';
import { loadCatalog, resolveLocation, validationSettings } from './catalog';
import { medicareData } from './medicare-data';
import { SERVICE_CODE_TYPES } from '../../contract/metrics';
import { prepareValidation } from './validation';
import { fillSourceValidation, makeManifest, manifestSource, medicareManifest } from './manifest-checks';
import type { FirstViewWriter } from './first-view';
import { headlineOf } from './headline';
import { ProblemLog } from './problems';
import { openSpool, sqlList, type Spool } from './spool';
import { ParsePool } from './parse-pool';
import { buildTables, checkTableInputs } from './build-tables';
import { readBillingCodes } from './csv-inputs';
import { billingCoverage } from './billed-stats';
import { writeDataset } from './write-dataset';
import { fillSourceCounts, reportDanglingReferences } from './source-counts';
import { makeTempSibling, recoverStale, swapIntoPlace } from './atomic-dir';
import { assertNoInput, listedInputs, OutputRefused, prepareOutput } from './output-guard';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from './fetch-policy';
import { planFiles, reportingStructures, type PlannedFile, type ReadingPlan } from './plan-files';
import { readRunPlan } from './run-plan';
import { RemoteReferenceResolver } from './remote-references';
import { ingestFile, reusablePartition, type IngestContext } from './ingest';
// BullMQ and ioredis (about 0.3 s to load) only for a run with --redis: queue.ts is imported there
import type { IngestJobData } from './queue';
import { isS3Store } from './s3-store';
import { guardEmpty, inStep } from './build-guards';
import { checkManifestCounts } from './count-check';
import { namedWriteFailure, writingTo } from './write-errors';
import { ingestSettings, resolveStore, type IngestSettings, type StoredPartition } from './source-store';
import { loadStoredPartition, partitionForBuild } from './partition-check';
import { PhaseTimer } from './timings';

/** Version written into every manifest; what each version changed is in CHANGELOG.md. */
export const CONVERTER_VERSION = '0.21.0';

export interface ConvertOptions {
  /** No progress and no per-file lines; errors still throw. */
  quiet?: boolean;
  /** Where lines go (default: stderr). */
  log?: (line: string) => void;
  /** Parser threads (default: the machine's available parallelism). */
  jobs?: number;
  /** An in_network item larger than this many bytes is split by negotiated_rates (default 8 MiB). */
  splitBytes?: number;
  /**
   * Fetch remote provider references (`provider_references[].location`) named by some rate
   * (default true). When false none is fetched and every declared one is reported unresolved.
   */
  remoteReferences?: boolean;
  /** HTTP client (fetch, time-out, retries, concurrency) for references, tables of contents and files by URL. */
  fetchPolicy?: Partial<FetchPolicy>;
  /** A directory keeping fetched provider-reference files across runs (keyed on the URL without query). */
  referenceCacheDir?: string;
  /**
   * A plan file (run-plan.ts, `npm run plan -- --out`): convert exactly its files instead of
   * following the catalog's files and tables of contents; the catalog still gives the insurers,
   * the CSV inputs, the billing-code and state filters and the validation settings.
   */
  plan?: string;
  /**
   * The store of source partitions (docs/converter.md, Two stages): a directory, default
   * `<out>.store` beside the dataset (defaultStore), so that the next run with the same `--out`
   * reuses the partitions of unchanged files.
   */
  store?: string;
  /** Build the dataset from the partitions in the store only: nothing is read, fetched or ingested. */
  buildOnly?: boolean;
  /**
   * Redis URL: the files are ingested by `npm run worker` processes through BullMQ (queue.ts) and
   * the dataset built here once they are done; the store must be one every worker sees.
   */
  redis?: string;
  /** Write a dataset without any rate row (build-guards.ts guardEmpty); without it such a run fails and the old dataset stays. */
  allowEmpty?: boolean;
  /** Where a warning that must be seen even with `quiet` goes (default: stderr): the empty dataset's. */
  warn?: (line: string) => void;
  /** Records each phase's wall and CPU seconds (`--timings`); phases run the same without it. */
  timer?: PhaseTimer;
}

export interface ConvertResult {
  outDir: string;
  manifest: DatasetManifest;
}

/** The parts of a run both stages need, read from the catalog and the options. */
interface Run {
  catalog: Catalog;
  baseDir: string;
  catalogSha: string;
  problems: ProblemLog;
  billingCodes: Set<string> | undefined;
  policy: FetchPolicy;
  settings: IngestSettings;
  fromPlan: ReadingPlan | null;
  log: (line: string) => void;
}

async function startRun(catalogPath: string, options: ConvertOptions): Promise<Run> {
  const log = options.quiet ? () => {} : (options.log ?? ((l: string) => process.stderr.write(l + '\n')));
  const { catalog, baseDir, sha256: catalogSha, warnings } = await loadCatalog(catalogPath);
  // a file the plan lists twice adds its warning to the catalog's
  const fromPlan = options.plan === undefined ? null : await readRunPlan(options.plan, catalog, warnings);
  warnings.forEach((w) => log(`warning: ${w}`));
  const problems = new ProblemLog();
  problems.warnings.push(...warnings);
  const billingCodes = await readBillingCodes(catalog, baseDir, catalogPath);
  const policy: FetchPolicy = { ...DEFAULT_FETCH_POLICY, ...options.fetchPolicy };
  const settings = ingestSettings(CONVERTER_VERSION, billingCodes, options.remoteReferences !== false);
  return { catalog, baseDir, catalogSha, problems, billingCodes, policy, settings, fromPlan, log };
}

/** The default store of a dataset directory: `<out>.store` beside it (docs/converter.md, Two stages). */
export const defaultStore = (outDir: string): string => `${path.resolve(outDir)}.store`;

/** A planned file's partition as this run uses it. */
interface UsedPartition extends StoredPartition {
  /** Taken from the store as it was (not ingested by this run). */
  reused: boolean;
}

/**
 * The first stage over a plan: for each file, the store's partition when it is unchanged
 * (ingest.ts reusablePartition), else a new ingest through `c`; for the build stage alone,
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
    const c = ingestContext(run, options, resolveStore(store), pool, remote, workDir);
    const parts = await timer.time('ingest', () => partitionsOf(run, plan, c.store, c));
    const used = parts.filter((p): p is UsedPartition => p !== null);
    const result = { store: c.store, ingested: used.filter((p) => !p.reused).length, reused: used.filter((p) => p.reused).length, failed: run.problems.failedFiles };
    run.log(`${result.ingested} files ingested, ${result.reused} unchanged and reused, ${result.failed.length} unreadable, in ${c.store}`);
    return result;
  } finally {
    await pool.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

function ingestContext(run: Run, options: ConvertOptions, store: string, pool: ParsePool, remote: RemoteReferenceResolver | null, workDir: string): IngestContext {
  return {
    store, pool, billingCodes: run.billingCodes, settings: run.settings, policy: run.policy, remote,
    splitBytes: options.splitBytes, workDir, quiet: options.quiet === true, log: run.log,
    warn: (w) => {
      run.problems.warnings.push(w);
      run.log(`warning: ${w}`);
    },
  };
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
  const { catalog, baseDir, catalogSha, problems, log } = run;
  const target = await prepareOutput(outDir, catalogPath, catalog, baseDir);
  await checkTableInputs(catalog, baseDir);
  const store = resolveStore(options.store ?? defaultStore(target));
  if (!isS3Store(store)) assertStoreOutside(outDir, target, store);
  const remote = options.remoteReferences === false ? null : new RemoteReferenceResolver(run.policy, options.referenceCacheDir);
  const tmpDir = await makeTempSibling(target);
  const workDir = path.join(tmpDir, '.work');
  // set by build(), read by the clean-up of a failed run
  const held: { spool: Spool | null; firstView: FirstViewWriter | null } = { spool: null, firstView: null };
  // the parser threads run here only when this process ingests
  const local = options.buildOnly !== true && options.redis === undefined;
  const pool = local ? new ParsePool(options.jobs ?? os.availableParallelism(), run.billingCodes) : null;
  const timer = options.timer ?? new PhaseTimer();
  /** A build step, named in its errors (inStep) and timed under the same name. */
  const step = <T>(name: string, work: () => Promise<T>, file?: string): Promise<T> => timer.time(name, () => inStep(name, work, file));
  try {
    await writingTo(workDir, () => mkdir(workDir, { recursive: true }));
    const plan = run.fromPlan ?? (await timer.time('plan the files', () => planFiles(catalog, baseDir, problems, run.policy, workDir)));
    await assertNoInput(outDir, target, listedInputs(plan.files));
    if (options.redis !== undefined && options.buildOnly !== true) {
      const { ingestDistributed } = await import('./queue.js');
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
    const parts = await timer.time(pool ? 'ingest' : 'check the partitions', () =>
      partitionsOf(run, plan, store, pool ? ingestContext(run, options, store, pool, remote, workDir) : null));
    await pool?.close();
    return await build(plan, parts);
  } catch (e) {
    await pool?.close();
    await held.firstView?.dispose();
    held.spool?.close();
    await rm(tmpDir, { recursive: true, force: true });
    throw namedWriteFailure(e, [{ what: 'the new dataset and its work directory', path: tmpDir }, { what: 'the store', path: store }]);
  }

  /** The second stage: the dataset from `parts` (null: a file that could not be read), swapped into place. */
  async function build(plan: ReadingPlan, parts: Array<UsedPartition | null>): Promise<ConvertResult> {
    // the first view's DuckDB thread starts beside the tables' build, not the parser threads; its
    // modules (the worker's data service) load here, so that a process that only ingests never loads them
    const { startFirstView } = await import('./first-view');
    const firstView = (held.firstView = startFirstView());
    const spool = (held.spool = await openSpool(workDir));
    const sources: ManifestSource[] = [];
    const sourceOf: number[][] = [];
    const sourceRows: Array<[number, string, string]> = [];
    for (const [k, part] of parts.entries()) {
      const ids: number[] = [];
      sourceOf.push(ids);
      if (!part) continue;
      const file = plan.files[k]!;
      await step('load the partitions', () => loadStoredPartition(spool, part, workDir, sources.length), `${file.url}: ${part.dir}`);
      problems.merge(part.record.problems);
      for (const s of part.record.sources) {
        ids.push(sources.length);
        sourceRows.push([sources.length, file.insurerId, s.snapshot]);
        sources.push(manifestSource(file, s, problems.countFor(s.url), part.reused));
      }
    }
    const con = spool.con;
    await con.run('CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR)');
    for (const [id, ins, snap] of sourceRows) await con.run('INSERT INTO sources VALUES ($1, $2, $3)', [id, ins, snap]);
    const settings = validationSettings(catalog);
    const cptDescriptors = catalog.cpt_descriptors !== false;
    const codes = (await con.runAndReadAll(`SELECT DISTINCT billing_code FROM raw_items WHERE billing_code_type IN (${sqlList(SERVICE_CODE_TYPES)}) ORDER BY 1`))
      .getRows().map((r) => String(r[0]));
    const medicare = await timer.time('read the Medicare fee schedules', () => medicareData({ codes, cptDescriptors }));
    const states = catalog.filters?.states?.map((s) => s.toUpperCase());
    const networks = plan.files.flatMap((f, k) => (f.networkName === undefined ? [] : [{ pattern: f.networkName, sourceIds: sourceOf[k]!, file: f.url }]));
    const claims = await step('build the tables', () => buildTables(con, {
      medicare,
      referenceInsurer: catalog.reference_insurer,
      npiRegistry: catalog.npi_registry ? resolveLocation(baseDir, catalog.npi_registry) : undefined,
      claimsVolume: catalog.claims_volume ? resolveLocation(baseDir, catalog.claims_volume) : undefined,
      services: catalog.services ? resolveLocation(baseDir, catalog.services) : undefined,
      states,
      networks,
      warnings: problems.warnings,
    }));
    await step('count the rate rows', () => fillSourceCounts(spool, sources));
    const empty = await guardEmpty(con, { parts, rateRows: sources.reduce((a, s) => a + s.rate_rows, 0), billingCodes: run.billingCodes,
      states, failedFiles: problems.failedFiles.length }, options.allowEmpty === true, outDir);
    if (empty !== null) {
      problems.warnings.push(empty);
      (options.warn ?? ((l: string) => process.stderr.write(`${l}\n`)))(empty);
    }
    await step('report dangling references', () => reportDanglingReferences(spool, sources, problems));
    // raw_groups' last reader was fillSourceCounts: its ~50 MB of uncompressed rows (1 GB benchmark
    // file) would otherwise hold DuckDB's memory limit through the last phase (write-dataset.ts)
    await con.run('DROP TABLE raw_groups');
    await step('validation (Medicare benchmark, source and outlier checks)', () => prepareValidation(con, medicare, settings));
    const tables = await step('price_stats and the Parquet files', () => writeDataset(spool.db, con, tmpDir));
    await step('count the rates by validation reason', () => fillSourceValidation(con, tmpDir, tables.rates, sources));
    const createdAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const manifest = await step('the manifest', () => makeManifest(spool, { converterVersion: CONVERTER_VERSION, catalog, catalogSha, createdAt, tables, sources, problems, claims }));
    manifest.billing_coverage = await billingCoverage(con, claims.byProvider);
    manifest.validation = settings;
    manifest.medicare = medicareManifest(medicare, cptDescriptors);
    manifest.headline = await step('the headline', () => headlineOf(con, manifest));
    if (plan.tocs.length) manifest.reporting_structures = reportingStructures(plan.tocs, sourceOf);
    await step('check the counts against the Parquet files', () => checkManifestCounts(con, tmpDir, manifest));
    spool.close();
    held.spool = null;
    await rm(workDir, { recursive: true, force: true });
    for (const [name, value] of [['report.json', problems.toReport(createdAt)], ['manifest.json', manifest]] as const) {
      const file = path.join(tmpDir, name);
      await writingTo(file, () => writeFile(file, JSON.stringify(value, null, 2)));
    }
    const derived = await timer.time('the first view', () => writingTo(tmpDir, () => firstView.write(tmpDir, createdAt)));
    manifest.tables.alerts = derived.alerts;
    if (derived.unitPivot) manifest.tables.unit_pivot = derived.unitPivot;
    await swapIntoPlace(tmpDir, target);
    const failed = problems.failedFiles.length ? `, ${problems.failedFiles.length} files unreadable (report.json failed_files)` : '';
    log(`dataset written to ${outDir}: ${manifest.counts.rate_rows} rate rows, ${manifest.counts.services} services, ` +
      `${manifest.counts.unresolved_rate_rows} unresolved, ${manifest.counts.problems} problems${failed}`);
    return { outDir: path.resolve(outDir), manifest };
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
