/**
 * The fuzz harness's loop (scripts/fuzz/cli.ts): cases one after another until a time or a count
 * is reached, each case's seed drawn from the run's seed (so a run is reproduced by its seed and
 * its case count), every case under a time-out. By default the cases run in a worker thread
 * (case-worker.ts), so that a reader stuck in a loop is stopped (the worker is terminated and a
 * new one takes the next case); with a `reader` given they run on this thread, where a time-out
 * catches a reader that never settles but not one that never yields.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { mulberry32 } from '../../contract/rules/prng';
import { startModuleWorker } from '../convert/common/module-worker';
import { runCase, type CaseResult } from './case';
import { MUTATION_KINDS, type MutationKind } from './mutate';
import { converterReader, type Reader } from './read';

/** Options of a run. */
export interface FuzzOptions {
  /** The run's seed: the cases' seeds are drawn from it. */
  seed: number;
  /** Stop starting cases after this many seconds (default: only `cases` bounds the run). */
  seconds?: number;
  /** Stop after this many cases. */
  cases?: number;
  /** Run only these case seeds (a failure's seed, to reproduce it). */
  caseSeeds?: number[];
  /** Mutation kinds drawn from (default: all). */
  kinds?: readonly MutationKind[];
  /** Time-out of one case, ms (default 60000: a case takes about a second, a long-string one a few, more on a busy machine). */
  timeoutMs?: number;
  /** The reader under test, run on this thread (default: the converter's, in a worker thread). */
  reader?: Reader;
  /** Called with each case's result as it comes. */
  onCase?: (r: CaseResult) => void;
}

/** What a run tried and found. */
export interface FuzzReport {
  seed: number;
  cases: number;
  /** Cases by mutation kind (a case of several local edits counts under each kind). */
  perKind: Record<string, number>;
  /** Cases whose split threshold was lowered. */
  splitCases: number;
  failures: CaseResult[];
}

/** The seed of case `k` of a run of seed `seed`. */
export function caseSeed(seed: number, k: number): number {
  return Math.floor(mulberry32((seed ^ Math.imul(k + 1, 0x9e3779b1)) >>> 0)() * 2 ** 32) >>> 0;
}

/** Runs cases in a worker thread that is replaced when a case times out. */
class IsolatedRunner {
  private worker: Worker | null = null;
  constructor(private readonly dir: string, private readonly kinds: readonly MutationKind[], private readonly timeoutMs: number) {}

  private start(): Worker {
    return startModuleWorker('case-worker', import.meta.url, { workerData: { dir: this.dir, kinds: this.kinds } });
  }

  run(seed: number): Promise<CaseResult> {
    const w = (this.worker ??= this.start());
    return new Promise((resolve) => {
      const done = (r: CaseResult): void => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        resolve(r);
      };
      const fail = (detail: string): CaseResult => ({ seed, kinds: [], description: '(the case did not finish)', violations: [{ invariant: 'a', detail, reads: [] }] });
      const onMessage = (r: CaseResult): void => done(r);
      const onError = (e: Error): void => {
        this.worker = null;
        done(fail(`the case thread crashed: ${e.message}`));
      };
      const timer = setTimeout(() => {
        this.worker = null;
        void w.terminate();
        done(fail(`no outcome within ${this.timeoutMs} ms (hang)`));
      }, this.timeoutMs);
      w.on('message', onMessage);
      w.on('error', onError);
      w.postMessage(seed);
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}

/** Runs `reader` on case `seed` on this thread, under a time-out. */
async function inProcess(seed: number, kinds: readonly MutationKind[], reader: Reader, timeoutMs: number): Promise<CaseResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CaseResult>((resolve) => {
    timer = setTimeout(() => resolve({ seed, kinds: [], description: '(the case did not finish)',
      violations: [{ invariant: 'a', detail: `no outcome within ${timeoutMs} ms (hang)`, reads: [] }] }), timeoutMs);
  });
  try {
    return await Promise.race([runCase(seed, kinds, reader), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the harness.
 * @throws Error when neither `seconds`, `cases` nor `caseSeeds` bounds the run.
 */
export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  if (o.seconds === undefined && o.cases === undefined && o.caseSeeds === undefined) throw new Error('a run needs --seconds, --cases or --case');
  const kinds = o.kinds ?? MUTATION_KINDS;
  const timeoutMs = o.timeoutMs ?? 60_000;
  const report: FuzzReport = { seed: o.seed, cases: 0, perKind: Object.fromEntries(kinds.map((k) => [k, 0])), splitCases: 0, failures: [] };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-fuzz-'));
  const isolated = o.reader ? null : new IsolatedRunner(dir, kinds, timeoutMs);
  const reader = o.reader;
  const deadline = o.seconds !== undefined ? performance.now() + o.seconds * 1000 : Infinity;
  try {
    for (let k = 0; ; k++) {
      if (o.caseSeeds ? k >= o.caseSeeds.length : (o.cases !== undefined && k >= o.cases) || performance.now() >= deadline) break;
      const seed = o.caseSeeds ? o.caseSeeds[k]! : caseSeed(o.seed, k);
      const r = isolated ? await isolated.run(seed) : await inProcess(seed, kinds, reader!, timeoutMs);
      report.cases++;
      for (const kind of new Set(r.kinds)) report.perKind[kind] = (report.perKind[kind] ?? 0) + 1;
      if (r.splitBytes !== undefined) report.splitCases++;
      if (r.violations.length > 0) report.failures.push(r);
      o.onCase?.(r);
    }
  } finally {
    await isolated?.close();
    await rm(dir, { recursive: true, force: true });
  }
  return report;
}

/** The converter's reader over a fresh temporary directory (for in-process runs); `close` deletes it. */
export async function temporaryConverterReader(): Promise<{ reader: Reader; close: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-fuzz-'));
  return { reader: converterReader(dir), close: () => rm(dir, { recursive: true, force: true }) };
}
