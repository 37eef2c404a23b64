/**
 * The converter's second stage, build (docs/converter.md, Two stages): the partitions of a run ->
 * the working DuckDB (spool.ts) -> the dataset's tables (build-tables.ts), validation, price_stats
 * and the Parquet files (output/write-dataset.ts) -> manifest.json, report.json and the first view,
 * swapped into place (output/atomic-dir.ts). One entry point: buildDataset.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVICE_CODE_TYPES } from '../../../contract/rules/metrics';
import type { ManifestSource } from '../../../contract/files/dataset';
import type { PhaseTimer } from '../common/timings';
import { swapIntoPlace } from '../common/atomic-dir';
import type { FirstViewWriter } from './output/first-view';
import { writeDataset } from './output/write-dataset';
import { writingTo } from '../common/write-errors';
import { resolveLocation, validationSettings } from '../plan/catalog';
import { reportingStructures, type ReadingPlan } from '../plan/plan-files';
import { CONVERTER_VERSION, type ConvertOptions, type ConvertResult, type Run, type UsedPartition } from '../run';
import { loadStoredPartition } from '../store/partition-check';
import { billingCoverage } from './billed-stats';
import { guardEmpty, inStep } from './build-guards';
import { buildTables } from './build-tables';
import { checkManifestCounts } from './count-check';
import { headlineOf } from './headline';
import { fillSourceValidation, makeManifest, manifestSource, medicareManifest } from './manifest-checks';
import { medicareData } from './medicare-data';
import { fillSourceCounts, reportDanglingReferences } from './source-counts';
import { openSpool, sqlList, type Spool } from '../spool/spool';
import { prepareValidation } from './validation';

/** Where the build writes, and what a failed run's clean-up must close. */
export interface BuildContext {
  run: Run;
  options: ConvertOptions;
  /** The `--out` as given, and the directory it resolves to (output-guard.ts prepareOutput). */
  outDir: string;
  target: string;
  /** The new dataset's temporary sibling of `target` (atomic-dir.ts), and the working directory inside it. */
  tmpDir: string;
  workDir: string;
  timer: PhaseTimer;
  /** Set here, read by the clean-up of a failed run: the working database and the first view's thread. */
  held: { spool: Spool | null; firstView: FirstViewWriter | null };
}

/**
 * The second stage (docs/converter.md, Two stages): the dataset from the partitions `parts` of
 * `plan.files` (null: a file that could not be read), built in `ctx.tmpDir` and swapped into place
 * at `ctx.target`.
 * @throws Error naming the step (build-guards.ts inStep) and, for a partition, its file; nothing
 *   is swapped then, and the caller removes `ctx.tmpDir`.
 */
export async function buildDataset(ctx: BuildContext, plan: ReadingPlan, parts: Array<UsedPartition | null>): Promise<ConvertResult> {
  const { run, options, outDir, target, tmpDir, workDir, timer, held } = ctx;
  const { catalog, baseDir, catalogSha, problems, log } = run;
  /** A build step, named in its errors (inStep) and timed under the same name. */
  const step = <T>(name: string, work: () => Promise<T>, file?: string): Promise<T> => timer.time(name, () => inStep(name, work, file));
  // the first view's DuckDB thread starts beside the tables' build, not the parser threads; its
  // modules (the worker's data service) load here, so that a process that only ingests never loads them
  const { startFirstView } = await import('./output/first-view');
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
  const tables = await step('price_stats and the Parquet files', () => writeDataset(spool, tmpDir));
  await step('count the rates by validation reason', () => fillSourceValidation(con, tmpDir, tables.rates, sources));
  const createdAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const manifest = await step('the manifest', () => makeManifest(spool, { converterVersion: CONVERTER_VERSION, catalog, catalogSha, createdAt, tables, sources, problems, claims }));
  manifest.billing_coverage = await billingCoverage(con, claims.byProvider);
  manifest.validation = settings;
  manifest.medicare = medicareManifest(medicare, cptDescriptors);
  manifest.headline = await step('the headline', () => headlineOf(con, manifest));
  if (plan.tocs.length) manifest.reporting_structures = reportingStructures(plan.tocs, sourceOf);
  await step('check the counts against the Parquet files', () => checkManifestCounts(con, tmpDir, manifest));
  await spool.close();
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
