/**
 * `npm run convert -- --catalog <catalog.json> --out <dataset-dir> [--store <dir>] [--plan <plan.json>] [--jobs N] [--quiet] [--timings]
 *   [--allow-empty] [--no-remote] [--reference-cache <dir>] [--fetch-timeout <ms>] [--fetch-retries <n>] [--fetch-concurrency <n>]`
 * (docs/converter.md): both stages, ingest (files whose partition in the store is missing or out of
 * date) and build. `--ingest-only` (`npm run ingest`) runs the first stage alone, into `--store`
 * (or `<out>.store`); `--build-only` (`npm run build-dataset`) the second alone, from the store.
 * Exit 0 when the dataset (or, ingest alone, every partition) was written; otherwise 1 with a
 * one-line reason on stderr (the previous dataset is then untouched), among them `--out` refused
 * (output-guard.ts: not absent, empty or a dataset, or an input), and a run whose filters or inputs
 * leave no rate row (build-guards.ts), unless `--allow-empty`, which writes the empty dataset with a
 * warning on stderr, printed even with `--quiet`. `--quiet` prints errors (and that warning) only.
 *
 * Run as a program, SIGINT, SIGTERM and SIGHUP end it at once: its temporary directory is removed
 * (atomic-dir.ts abandonSync), one stderr line says it was interrupted, exit 128 + the signal's
 * number (130, 143, 129). A SIGKILL leaves the directory, which the next run removes.
 */
import { Command, CommanderError } from 'commander';
import { abandonSync } from '../common/atomic-dir';
import { fetchPolicyOf, int, isProgram, withFetchOptions, type FetchOptions } from './options';
import { convertCatalog, defaultStore, ingestCatalog, type ConvertOptions } from '../index';
import { PhaseTimer } from '../common/timings';

interface CliOptions extends FetchOptions {
  catalog: string;
  out?: string;
  store?: string;
  ingestOnly?: boolean;
  buildOnly?: boolean;
  redis?: string;
  plan?: string;
  jobs?: string;
  quiet?: boolean;
  remote: boolean;
  referenceCache?: string;
  allowEmpty?: boolean;
  timings?: boolean;
}

/**
 * Runs the converter's command line on `argv` (the arguments after the script name).
 * @param write where stderr lines go (errors, and the per-file lines unless `--quiet`)
 * @returns the exit code: 0 when the dataset was written, 1 otherwise.
 */
export async function runConvertCli(argv: string[], write: (text: string) => void = (t) => void process.stderr.write(t)): Promise<number> {
  const program = withFetchOptions(new Command()
    .name('convert')
    .description('Convert Transparency in Coverage in-network files named by a catalog into a Compete dataset')
    .requiredOption('--catalog <file>', 'catalog JSON (docs/converter.md, The catalog)')
    .option('--out <dir>', 'dataset directory to write (replaced atomically); required but with --ingest-only')
    .option('--store <dir>', 'where the source partitions are kept across runs (default: <out>.store beside the dataset)')
    .option('--ingest-only', 'the first stage alone: read the files whose partition is missing or out of date into the store')
    .option('--build-only', 'the second stage alone: build the dataset from the partitions in the store, reading no file')
    .option('--redis <url>', 'ingest on `npm run worker` processes through this Redis (BullMQ); the store must be shared with them')
    .option('--plan <file>', 'convert exactly the files of this plan (npm run plan -- --out <file>)')
    .option('--jobs <n>', 'parser threads (default: the number of cores)')
    .option('--quiet', 'print errors only: no progress, no per-file lines')
    .option('--allow-empty', 'write the dataset even when the filters or inputs leave no rate row (otherwise the run fails and the old dataset stays)')
    .option('--no-remote', 'do not fetch remote provider references (provider_references[].location)')
    .option('--timings', 'print each phase\'s wall and CPU seconds at the end (to stderr, also with --quiet)')
    .option('--reference-cache <dir>', 'keep fetched provider-reference files in this directory across runs'), 'provider-reference requests')
    .exitOverride()
    .configureOutput({ writeErr: write, writeOut: write });
  let opts: CliOptions;
  let options: ConvertOptions;
  try {
    program.parse(argv, { from: 'user' });
    opts = program.opts<CliOptions>();
    options = {
      quiet: opts.quiet === true,
      log: (line) => write(line + '\n'),
      jobs: int('--jobs', opts.jobs),
      ...(opts.plan !== undefined ? { plan: opts.plan } : {}),
      remoteReferences: opts.remote,
      referenceCacheDir: opts.referenceCache,
      fetchPolicy: fetchPolicyOf(opts),
      ...(opts.store !== undefined ? { store: opts.store } : {}),
      buildOnly: opts.buildOnly === true,
      ...(opts.redis !== undefined ? { redis: opts.redis } : {}),
      allowEmpty: opts.allowEmpty === true,
      warn: (line) => write(`convert: ${line}\n`),
      ...(opts.timings === true ? { timer: new PhaseTimer() } : {}),
    };
    if (opts.redis !== undefined && opts.ingestOnly) throw new Error('--redis runs the ingest on the workers: use it without --ingest-only');
    if (opts.ingestOnly && opts.buildOnly) throw new Error('--ingest-only and --build-only exclude each other');
    if (opts.ingestOnly ? opts.store === undefined && opts.out === undefined : opts.out === undefined) {
      throw new Error(opts.ingestOnly ? '--ingest-only needs --store (or --out, whose store is <out>.store)' : "required option '--out <dir>' not specified");
    }
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    write(`convert: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    if (opts.ingestOnly) {
      const r = await ingestCatalog(opts.catalog, opts.store ?? defaultStore(opts.out!), options);
      return r.failed.length > 0 && r.ingested + r.reused === 0 ? 1 : 0;
    }
    await convertCatalog(opts.catalog, opts.out!, options);
    return 0;
  } catch (e) {
    write(`convert: ${((e as Error).message ?? String(e)).split('\n')[0]}\n`);
    return 1;
  } finally {
    if (options.timer) write(options.timer.lines().map((l) => `timings: ${l}\n`).join(''));
  }
}

/** Exit codes of the signals that end a run (128 + the signal's number). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Ends the process on `signal`: removes the run's temporary directory (and puts back a dataset a
 * swap had set aside), writes one line, exits 128 + the signal's number.
 */
export function interrupted(signal: keyof typeof SIGNAL_EXIT, write: (text: string) => void = (t) => void process.stderr.write(t)): never {
  let what: string;
  try {
    const outs = abandonSync();
    what = outs.length ? `temporary directory removed, ${outs.join(', ')} unchanged` : 'nothing written';
  } catch (e) {
    what = `cleaning up failed (${(e as Error).message.split('\n')[0]})`;
  }
  write(`convert: interrupted by ${signal}; ${what}\n`);
  process.exit(SIGNAL_EXIT[signal]);
}

if (isProgram(import.meta.url)) {
  for (const signal of Object.keys(SIGNAL_EXIT) as Array<keyof typeof SIGNAL_EXIT>) process.once(signal, () => interrupted(signal));
  process.exit(await runConvertCli(process.argv.slice(2)));
}
