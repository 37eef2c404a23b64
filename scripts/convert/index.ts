/**
 * The converter (docs/converter.md): catalog -> streaming read of every in-network file -> working
 * DuckDB -> dataset tables -> Parquet + manifest.json + report.json, swapped into place atomically.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetManifest, ManifestSource } from '../../contract/dataset';
import type { Catalog } from '../../contract/catalog';
import { unlink } from 'node:fs/promises';
import os from 'node:os';
import { loadCatalog, resolveLocation, validationSettings } from './catalog';
import { medicareData } from './medicare-data';
import { SERVICE_CODE_TYPES } from '../../contract/metrics';
import { prepareValidation } from './validation';
import { fillSourceValidation, makeManifest, medicareManifest, noFailures } from './manifest-checks';
import { startFirstView, type FirstViewWriter } from './first-view';
import { headlineOf } from './headline';
import { ProblemLog } from './problems';
import { openSpool, sqlList, type Spool } from './spool';
import { ParsePool, type SourceDone } from './parse-pool';
import { readSource, type ReadSourceResult } from './read-source';
import { openSources, type OpenedFile } from './open-sources';
import { monthOf } from './snapshot';
import { buildTables } from './build-tables';
import { writeDataset } from './write-dataset';
import { makeTempSibling, swapIntoPlace } from './atomic-dir';
import { assertNoInput, listedInputs, prepareOutput } from './output-guard';
import { makeProgress } from './progress';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from './fetch-policy';
import { planFiles, reportingStructures, type PlannedFile } from './plan-files';
import { readRunPlan } from './run-plan';
import { RemoteReferenceResolver } from './remote-references';
import { spoolRemoteGroups, type RemoteOutcome } from './spool-remote-groups';

/** Version written into every manifest; what each version changed is in CHANGELOG.md. */
export const CONVERTER_VERSION = '0.9.0';

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
}

export interface ConvertResult {
  outDir: string;
  manifest: DatasetManifest;
}

async function readBillingCodes(catalog: Catalog, baseDir: string): Promise<Set<string> | undefined> {
  const f = catalog.filters?.billing_codes;
  if (f == null) return undefined;
  const list = Array.isArray(f) ? f : (await readFile(resolveLocation(baseDir, f), 'utf8')).split(/\r?\n/);
  return new Set(list.map((c) => c.trim()).filter((c) => c && !c.startsWith('#')));
}

/** Loads what the parser threads spooled for one source into the raw tables, then deletes the files. */
async function loadSpooled(spool: Spool, result: ReadSourceResult): Promise<void> {
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

/** What spoolSource needs of the conversion. */
interface SourceContext {
  spool: Spool;
  problems: ProblemLog;
  remote: RemoteReferenceResolver | null;
  workDir: string;
  log: (line: string) => void;
}

/**
 * Takes source `sourceId` (`url`, of planned `file`) from what readSource gave into the raw
 * tables: its spooled rows, its problems, its remote provider references (fetched unless `remote`
 * is null); returns its manifest entry (counts filled later: fillSourceCounts).
 * @throws when the source has no snapshot (neither the catalog nor `last_updated_on` gives one).
 */
async function spoolSource(c: SourceContext, url: string, file: PlannedFile, sourceId: number, result: ReadSourceResult): Promise<ManifestSource> {
  const { spool, problems, remote } = c;
  await loadSpooled(spool, result);
  for (const p of result.problems) problems.add({ file: url, ...p });
  const sites = remote ? takeRemoteProblems(result.spooled) : new Map();
  for (const d of result.spooled) problems.addCounted(url, d.kept, d.counts);
  let unresolvedRefs: number;
  let remoteNote: string;
  if (remote) {
    const outcome = await spoolRemoteGroups(spool, sourceId, remote, path.join(c.workDir, 'remote'));
    unresolvedRefs = reportRemote(url, outcome, sites, problems);
    remoteNote = `${outcome.used + outcome.unused} remote: ${outcome.resolved} fetched, ${unresolvedRefs} unresolved, ${outcome.unused} named by no rate`;
  } else {
    unresolvedRefs = await scalar(spool, `SELECT count(DISTINCT provider_group_id) FROM raw_groups
      WHERE source_id = ${sourceId} AND remote_location IS NOT NULL AND provider_id IS NULL`);
    remoteNote = `${unresolvedRefs} remote, not fetched`;
  }
  const h = result.header;
  const snapshot = file.snapshot ?? monthOf(h.last_updated_on);
  if (!snapshot) {
    throw new Error(`${url}: no snapshot: the catalog gives none and last_updated_on '${h.last_updated_on}' is not a date`);
  }
  const sum = (k: 'items' | 'priceRows' | 'providerReferences'): number => result.spooled.reduce((a, d) => a + d[k], 0);
  c.log(`${url}: ${sum('items')} items, ${result.skippedItems} skipped by the filter, ${sum('priceRows')} rate rows, ` +
    `${sum('providerReferences')} provider references (${remoteNote}), ${(result.jsonBytes / 1e6).toFixed(1)} MB JSON`);
  return {
    insurer_id: file.insurerId,
    snapshot,
    url,
    ...(file.tableOfContents ? { table_of_contents: file.tableOfContents } : {}),
    reporting_entity_name: h.reporting_entity_name,
    reporting_entity_type: h.reporting_entity_type,
    last_updated_on: h.last_updated_on,
    version: h.version,
    bytes: result.inputBytes,
    sha256: result.sha256,
    rate_rows: 0,
    unresolved_rate_rows: 0,
    provider_groups: 0,
    validation: noFailures(),
    median_medicare_pct: null,
    problems: problems.countFor(url),
    unresolved_provider_references: unresolvedRefs,
  };
}

/**
 * Converts the catalog at `catalogPath` into the dataset directory `outDir`.
 * @throws Error with a one-line reason (naming the file and byte offset for an unreadable file)
 *   when no dataset was written; the previous `outDir` is then untouched. OutputRefused
 *   (output-guard.ts) before any source is read when `outDir` is not absent, empty or a dataset,
 *   or is or holds an input.
 */
export async function convertCatalog(catalogPath: string, outDir: string, options: ConvertOptions = {}): Promise<ConvertResult> {
  const log = options.quiet ? () => {} : (options.log ?? ((l: string) => process.stderr.write(l + '\n')));
  const { catalog, baseDir, sha256: catalogSha, warnings } = await loadCatalog(catalogPath);
  const fromPlan = options.plan === undefined ? null : await readRunPlan(options.plan, catalog);
  const target = await prepareOutput(outDir, catalogPath, catalog, baseDir);
  warnings.forEach((w) => log(`warning: ${w}`));
  const problems = new ProblemLog();
  problems.warnings.push(...warnings);
  const billingCodes = await readBillingCodes(catalog, baseDir);
  const policy: FetchPolicy = { ...DEFAULT_FETCH_POLICY, ...options.fetchPolicy };
  const remote = options.remoteReferences === false ? null : new RemoteReferenceResolver(policy, options.referenceCacheDir);
  const tmpDir = await makeTempSibling(target);
  const workDir = path.join(tmpDir, '.work');
  let spool: Spool | null = null;
  const pool = new ParsePool(options.jobs ?? os.availableParallelism(), billingCodes);
  let firstView: FirstViewWriter | null = null;
  try {
    await mkdir(workDir, { recursive: true });
    spool = await openSpool(workDir);
    const plan = fromPlan ?? (await planFiles(catalog, baseDir, problems, policy, workDir));
    await assertNoInput(outDir, target, listedInputs(plan.files));
    const sources: ManifestSource[] = [];
    const sourceOf: number[][] = [];
    const sourceRows: Array<[number, string, string]> = [];
    const skip = (file: PlannedFile, url: string, e: unknown): void => {
      // docs/converter.md (What it reads, and what it does with bad input): a file reached through a table of contents that cannot be read is
      // recorded and the run goes on
      if (!file.tableOfContents) throw e;
      problems.failedFiles.push({ file: url, reason: (e as Error).message });
      log(`skipped ${url}: ${(e as Error).message}`);
    };
    for (const [k, file] of plan.files.entries()) {
      const ids: number[] = [];
      sourceOf.push(ids);
      const progress = makeProgress(file.url, options.quiet === true);
      let opened: OpenedFile;
      try {
        opened = await openSources(file, policy, workDir, (done, total) => progress.update(done, total));
      } catch (e) {
        progress.stop();
        skip(file, file.url, e);
        continue;
      }
      progress.stop();
      try {
        for (const [j, input] of opened.sources.entries()) {
          const sourceId = sources.length;
          const shown = makeProgress(input.url, options.quiet === true);
          let result: ReadSourceResult;
          try {
            result = await readSource(input.name, input.open(), pool, {
              sourceId, dir: workDir, billingCodes, splitBytes: options.splitBytes, archive: input.archive,
              inputBytes: input.size ?? undefined, onProgress: (done, total) => shown.update(done, total),
            });
          } catch (e) {
            shown.stop();
            // what its threads spooled is dropped
            for (const d of await pool.finish(sourceId)) await Promise.all(Object.values(d.files).flat().map((f) => unlink(f)));
            skip(file, input.url, e);
            continue;
          }
          shown.stop();
          // after the last source, the parser threads' heaps go before DuckDB grows (peak RSS)
          if (k === plan.files.length - 1 && j === opened.sources.length - 1) await pool.close();
          if (input.note) problems.add({ file: input.url, code: input.note.code, path: '$', offset: 0, message: input.note.message });
          const source = await spoolSource({ spool, problems, remote, workDir, log }, input.url, file, sourceId, result);
          ids.push(sourceId);
          sources.push(source);
          sourceRows.push([sourceId, file.insurerId, source.snapshot]);
        }
      } finally {
        await opened.close();
      }
    }
    await pool.close();
    // DuckDB-WASM's compile (for the first view) runs beside the tables' build, not the parser threads
    firstView = startFirstView();
    const con = spool.con;
    await con.run('CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR)');
    for (const [id, ins, snap] of sourceRows) await con.run('INSERT INTO sources VALUES ($1, $2, $3)', [id, ins, snap]);
    const settings = validationSettings(catalog);
    const cptDescriptors = catalog.cpt_descriptors !== false;
    const codes = (await con.runAndReadAll(`SELECT DISTINCT billing_code FROM raw_items WHERE billing_code_type IN (${sqlList(SERVICE_CODE_TYPES)}) ORDER BY 1`))
      .getRows().map((r) => String(r[0]));
    const medicare = await medicareData({ codes, cptDescriptors });
    const { claimsByState } = await buildTables(con, {
      medicare,
      referenceInsurer: catalog.reference_insurer,
      npiRegistry: catalog.npi_registry ? resolveLocation(baseDir, catalog.npi_registry) : undefined,
      claimsVolume: catalog.claims_volume ? resolveLocation(baseDir, catalog.claims_volume) : undefined,
      services: catalog.services ? resolveLocation(baseDir, catalog.services) : undefined,
      states: catalog.filters?.states?.map((s) => s.toUpperCase()),
    });
    await fillSourceCounts(spool, sources);
    await reportDanglingReferences(spool, sources, problems);
    // raw_groups' last reader was fillSourceCounts: its ~50 MB of uncompressed rows (1 GB benchmark
    // file) would otherwise hold DuckDB's memory limit through the last phase (write-dataset.ts)
    await con.run('DROP TABLE raw_groups');
    await prepareValidation(con, medicare, settings);
    const tables = await writeDataset(spool.db, con, tmpDir);
    await fillSourceValidation(con, tmpDir, tables.rates, sources);
    const createdAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const manifest = await makeManifest(spool, { converterVersion: CONVERTER_VERSION, catalog, catalogSha, createdAt, tables, sources, problems, claimsByState });
    manifest.validation = settings;
    manifest.medicare = medicareManifest(medicare, cptDescriptors);
    manifest.headline = await headlineOf(con, manifest);
    if (plan.tocs.length) manifest.reporting_structures = reportingStructures(plan.tocs, sourceOf);
    spool.close();
    spool = null;
    await rm(workDir, { recursive: true, force: true });
    await writeFile(path.join(tmpDir, 'report.json'), JSON.stringify(problems.toReport(createdAt), null, 2));
    await writeFile(path.join(tmpDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await firstView.write(tmpDir, createdAt);
    await swapIntoPlace(tmpDir, target);
    const failed = problems.failedFiles.length ? `, ${problems.failedFiles.length} files unreadable (report.json failed_files)` : '';
    log(`dataset written to ${outDir}: ${manifest.counts.rate_rows} rate rows, ${manifest.counts.services} services, ` +
      `${manifest.counts.unresolved_rate_rows} unresolved, ${manifest.counts.problems} problems${failed}`);
    return { outDir: path.resolve(outDir), manifest };
  } catch (e) {
    await pool.close();
    await firstView?.dispose();
    spool?.close();
    await rm(tmpDir, { recursive: true, force: true });
    throw e;
  }
}

async function scalar(spool: Spool, sql: string): Promise<number> {
  const r = await spool.con.runAndReadAll(sql);
  return Number(r.getRows()[0]?.[0] ?? 0);
}

/** Rate rows, unresolved rate rows and declared provider groups of every source (named_refs, build-tables.ts). */
async function fillSourceCounts(spool: Spool, sources: ManifestSource[]): Promise<void> {
  const r = await spool.con.runAndReadAll(`
    WITH counted AS (
      SELECT source_id, sum(n) FILTER (WHERE kept) AS n, sum(n) FILTER (WHERE kept AND NOT resolved) AS unresolved
      FROM named_refs GROUP BY 1),
    groups AS (SELECT source_id, count(DISTINCT provider_group_id) AS n FROM raw_groups GROUP BY 1)
    SELECT s.source_id, coalesce(c.n, 0), coalesce(c.unresolved, 0), coalesce(g.n, 0)
    FROM sources s LEFT JOIN counted c USING (source_id) LEFT JOIN groups g USING (source_id)`);
  for (const [id, rows, unresolved, groups] of r.getRows()) {
    const src = sources[Number(id)]!;
    src.rate_rows = Number(rows);
    src.unresolved_rate_rows = Number(unresolved);
    src.provider_groups = Number(groups);
  }
}

/**
 * Rates that name a provider_group_id their file never declares (a dangling reference): kept with
 * an empty provider (docs/methodology.md, Rows that count) and reported once per (file, id).
 */
async function reportDanglingReferences(spool: Spool, sources: ManifestSource[], problems: ProblemLog): Promise<void> {
  const r = await spool.con.runAndReadAll(`
    SELECT source_id, provider_group_id, CAST(n AS INTEGER) FROM named_refs
    WHERE provider_group_id IS NOT NULL AND NOT declared ORDER BY 1, 2`);
  for (const [id, groupId, n] of r.getRows()) {
    const src = sources[Number(id)]!;
    problems.add({
      file: src.url,
      code: 'dangling_provider_reference',
      message: `${Number(n)} rate rows name provider group ${String(groupId)}, which the file does not declare; they are unresolved`,
      path: '$.in_network[*].negotiated_rates[*].provider_references',
      offset: -1,
    });
    src.problems++;
  }
}

