/**
 * What both stages of a conversion share (docs/converter.md, Two stages): the converter's version,
 * its options and result, and the run read from the catalog (startRun).
 */
import path from 'node:path';
import type { Catalog } from '../../contract/files/catalog';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { PhaseTimer } from './common/timings';
import { loadCatalog } from './plan/catalog';
import { readBillingCodes } from './plan/csv-inputs';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from './plan/fetch-policy';
import type { ReadingPlan } from './plan/plan-files';
import { readRunPlan } from './plan/run-plan';
import { ProblemLog } from './common/problems';
import { ingestSettings, type IngestSettings, type StoredPartition } from './store/source-store';

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
export interface Run {
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

/**
 * Reads the catalog (and the plan file of `options.plan`), its billing-code list and the run's settings.
 * @throws as loadCatalog, readRunPlan and readBillingCodes do, naming the file.
 */
export async function startRun(catalogPath: string, options: ConvertOptions): Promise<Run> {
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
export interface UsedPartition extends StoredPartition {
  /** Taken from the store as it was (not ingested by this run). */
  reused: boolean;
}

