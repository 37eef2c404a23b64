/**
 * The tiny mode of the benchmarks (`npm run bench -- --tiny`, or `COMPETE_BENCH_TINY=1`): every
 * benchmark runs its whole path once at a size of seconds, so CI proves each still runs to
 * completion (test/bench/tiny.test.ts). Its figures mean nothing and nothing asserts them.
 */

/** The environment variable bench/run.ts sets for its children in tiny mode. */
export const TINY_ENV = 'COMPETE_BENCH_TINY';

/** Whether this process runs in tiny mode: `--tiny` among its arguments, or `COMPETE_BENCH_TINY=1`. */
export const TINY = process.env[TINY_ENV] === '1' || process.argv.includes('--tiny');

/** `full` normally, `tiny` in tiny mode. */
export function sized<T>(full: T, tiny: T): T {
  return TINY ? tiny : full;
}

/** The arguments after the script's path, without `--tiny`. */
export function benchArgs(): string[] {
  return process.argv.slice(2).filter((a) => a !== '--tiny');
}

/** The number after `name` among the arguments (`--rows 5`), else `dflt`. */
export function numberArg(name: string, dflt: number): number {
  const args = benchArgs();
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? Number(args[i + 1]) : dflt;
}
