/**
 * Guards of the build stage (docs/converter.md, Two stages):
 * - inStep: a DuckDB error of a build step is rethrown naming the step (and the file, where the
 *   step has one), since DuckDB's own message ("Out of Range Error: cannot take logarithm of zero")
 *   names neither;
 * - guardEmpty: a build whose filters or inputs leave no rate row stops before anything is written,
 *   naming the filter and what there was before it, unless `--allow-empty` asks for the empty dataset
 *   (docs/converter.md, The catalog: an empty result is far more often a mistyped filter than a wish).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { PartitionSource } from '../store/source-store';

/** A failure of a build step, its message `build step "<step>"[ (<file>)]: <DuckDB's message>`; `cause` is DuckDB's error. */
export class BuildStepError extends Error {
  constructor(readonly step: string, readonly file: string | undefined, cause: Error) {
    super(`build step "${step}"${file !== undefined ? ` (${file})` : ''}: ${cause.message}`, { cause });
    this.name = 'BuildStepError';
  }
}

/**
 * Whether `e` is an error DuckDB raised: its messages start with the error's class
 * (`Out of Range Error: `, `IO Error: `, `Binder Error: `, ...).
 */
export const isDuckDbError = (e: unknown): e is Error => e instanceof Error && !(e instanceof BuildStepError) && /^[A-Z][A-Za-z ]* Error: /.test(e.message);

/**
 * Runs build step `step` (`file`: the input it reads, when one); a DuckDB error is rethrown as a
 * BuildStepError naming both, any other error as it is (those of the converter name their file).
 * @throws BuildStepError or what `work` throws.
 */
export async function inStep<T>(step: string, work: () => Promise<T>, file?: string): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw isDuckDbError(e) ? new BuildStepError(step, file, e) : e;
  }
}

/** No rate row is left: the run stops and the previous dataset stays (guardEmpty). */
export class EmptyDatasetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmptyDatasetError';
  }
}

/** What the build knows of where the rate rows went, for the reason of an empty dataset. */
export interface EmptyFacts {
  /** Rate rows left (manifest counts.rate_rows, after every filter). */
  rateRows: number;
  /** Rate rows before the states filter (every source's, kept or not). */
  rowsBeforeStates: number;
  /** The catalog's `filters.states` (upper case), when given. */
  states?: readonly string[];
  /** The catalog's `filters.billing_codes`, when given. */
  billingCodes?: ReadonlySet<string>;
  /** `in_network` items the files' ingest kept and skipped by the billing-code filter (PartitionSource counts). */
  items: number;
  skippedItems: number;
  /** Sources read, and files that could not be read (report.json failed_files). */
  sources: number;
  failedFiles: number;
}

/** Why no rate row is left, in one clause naming the filter and how much there was before it; null when rows are left. */
export function emptyReason(f: EmptyFacts): string | null {
  if (f.rateRows > 0) return null;
  if (f.billingCodes !== undefined && f.items === 0 && f.skippedItems > 0) {
    return `filters.billing_codes (${f.billingCodes.size} codes) matched none of the ${f.skippedItems} in_network items of the files`;
  }
  if (f.states !== undefined && f.states.length > 0 && f.rowsBeforeStates > 0) {
    return `filters.states [${f.states.join(', ')}] kept none of the ${f.rowsBeforeStates} rate rows before it ` +
      '(no provider of their groups is located in these states by the NPI registry)';
  }
  const failed = f.failedFiles > 0 ? `, ${f.failedFiles} unreadable (report.json failed_files)` : '';
  return `the inputs hold no rate row (${f.sources} sources read, ${f.items} in_network items${failed})`;
}

/** What the build hands guardEmpty: its partitions (null: a file not read), rate rows left, the filters. */
export interface EmptyInputs {
  parts: ReadonlyArray<{ record: { sources: ReadonlyArray<Pick<PartitionSource, 'counts'>> } } | null>;
  rateRows: number;
  states?: readonly string[];
  billingCodes?: ReadonlySet<string>;
  failedFiles: number;
}

/**
 * Stops a build that leaves no rate row, before any file of the dataset is written; with
 * `allowEmpty` it goes on and the returned warning says so. Reads the rate rows before the states
 * filter from `named_refs` (build-tables.ts), the items kept and skipped from the partitions' counts.
 * @returns null when rate rows are left, else (allowEmpty) the warning line to print and report.
 * @throws EmptyDatasetError naming the filter, the rows before it and `outDir`, which stays as it was.
 */
export async function guardEmpty(con: DuckDBConnection, inputs: EmptyInputs, allowEmpty: boolean, outDir: string): Promise<string | null> {
  if (inputs.rateRows > 0) return null;
  const before = await con.runAndReadAll('SELECT coalesce(sum(n), 0) FROM named_refs');
  const sources = inputs.parts.flatMap((p) => p?.record.sources ?? []);
  const reason = emptyReason({
    rateRows: inputs.rateRows, rowsBeforeStates: Number(before.getRows()[0]![0]), states: inputs.states, billingCodes: inputs.billingCodes,
    items: sources.reduce((a, s) => a + s.counts.items, 0), skippedItems: sources.reduce((a, s) => a + s.counts.skipped_items, 0),
    sources: sources.length, failedFiles: inputs.failedFiles,
  })!;
  if (!allowEmpty) {
    throw new EmptyDatasetError(`no rate row left: ${reason}; ${outDir} is left as it was (--allow-empty writes the empty dataset)`);
  }
  return `warning: the dataset written to ${outDir} holds no rate row (--allow-empty): ${reason}`;
}
