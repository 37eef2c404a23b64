/**
 * `npm run worker -- --redis <url> [--jobs N] [--concurrency N] [--lock-ms <ms>] [--quiet]`
 * (docs/deployment.md): takes ingest jobs from Redis (queue.ts) until SIGINT or SIGTERM, which let
 * the current job finish (a second signal, or SIGKILL, ends it at once: its job is then stalled and
 * given to another worker). One line per job on stderr: `start`, `ingested`, `reused` or `failed`
 * with the file's url. Exit 1 with a one-line reason when Redis cannot be reached.
 */
import { Command, CommanderError } from 'commander';
import { int, isProgram } from './options';
import { startIngestWorker } from '../ingest/queue';

interface CliOptions {
  redis: string;
  jobs?: string;
  concurrency?: string;
  lockMs?: string;
  quiet?: boolean;
}

/**
 * Runs the worker's command line on `argv`; resolves with the exit code once the worker stopped
 * (`stop` resolves: the signal handlers of the program call it).
 */
export async function runWorkerCli(argv: string[], stop: Promise<void>, write: (text: string) => void = (t) => void process.stderr.write(t)): Promise<number> {
  const program = new Command()
    .name('worker')
    .description('Ingest in-network files queued by `npm run convert -- --redis <url>` into their partitions')
    .requiredOption('--redis <url>', 'Redis URL, e.g. redis://127.0.0.1:6379')
    .option('--jobs <n>', 'parser threads per file (default: the number of cores)')
    .option('--concurrency <n>', 'files at once in this process (default 1)')
    .option('--lock-ms <ms>', 'a job whose worker is silent this long is given to another worker (default 30000)')
    .option('--quiet', 'print errors only')
    .exitOverride()
    .configureOutput({ writeErr: write, writeOut: write });
  let opts: CliOptions;
  let numbers: { jobs?: number; concurrency?: number; lockMs?: number };
  try {
    program.parse(argv, { from: 'user' });
    opts = program.opts<CliOptions>();
    numbers = { jobs: int('--jobs', opts.jobs), concurrency: int('--concurrency', opts.concurrency), lockMs: int('--lock-ms', opts.lockMs) };
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    write(`worker: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    const w = await startIngestWorker(opts.redis, { ...numbers, quiet: opts.quiet === true, log: (l) => write(l + '\n') });
    write(`worker: taking jobs from ${opts.redis}\n`);
    await stop;
    await w.close();
    return 0;
  } catch (e) {
    write(`worker: ${((e as Error).message ?? String(e)).split('\n')[0]}\n`);
    return 1;
  }
}

if (isProgram(import.meta.url)) {
  const stop = new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        process.stderr.write(`worker: ${signal}: finishing the current job\n`);
        resolve();
        process.once(signal, () => process.exit(130));
      });
    }
  });
  process.exit(await runWorkerCli(process.argv.slice(2), stop));
}
