/**
 * Command-line options the converter's commands share (commander): integer options, and the HTTP
 * client's `--fetch-timeout`, `--fetch-retries`, `--fetch-concurrency` (fetch-policy.ts FetchPolicy).
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { FetchPolicy } from '../plan/fetch-policy';

/** A positive (or, with `zero`, non-negative) integer option; throws a one-line reason otherwise (`invalid --jobs: 0`). */
export function int(name: string, v: string | undefined, zero = false): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < (zero ? 0 : 1)) throw new Error(`invalid ${name}: ${v}`);
  return n;
}

/** The HTTP client's options as commander gives them. */
export interface FetchOptions {
  fetchTimeout?: string;
  fetchRetries?: string;
  fetchConcurrency?: string;
}

/** Adds the HTTP client's options to `program`; `concurrencyOf` says what --fetch-concurrency bounds. */
export function withFetchOptions(program: Command, concurrencyOf: string): Command {
  return program
    .option('--fetch-timeout <ms>', 'time-out of one HTTP request, milliseconds (default 30000)')
    .option('--fetch-retries <n>', 'retries on network errors, time-outs, 429 and 5xx (default 3)')
    .option('--fetch-concurrency <n>', `${concurrencyOf} in flight (default 8)`);
}

/** The fetch policy fields the options set (the others left to the defaults). @throws Error `invalid --fetch-timeout: x` */
export function fetchPolicyOf(opts: FetchOptions): Partial<FetchPolicy> {
  const timeoutMs = int('--fetch-timeout', opts.fetchTimeout);
  const retries = int('--fetch-retries', opts.fetchRetries, true);
  const concurrency = int('--fetch-concurrency', opts.fetchConcurrency);
  return {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(retries !== undefined ? { retries } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
  };
}

/**
 * Whether the module of URL `moduleUrl` (its `import.meta.url`) is the program run (`node cli.ts`,
 * `tsx cli.ts`, through a symbolic link too), not a module imported by another.
 */
export function isProgram(moduleUrl: string): boolean {
  try {
    return process.argv[1] !== undefined && moduleUrl === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}
