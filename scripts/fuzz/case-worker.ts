/**
 * The worker thread of the fuzz harness (run.ts IsolatedRunner): receives case seeds, runs each
 * case against the converter's reader (read.ts) and posts its result. The main thread terminates
 * it when a case overruns its time-out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runCase } from './case';
import type { MutationKind } from './mutate';
import { converterReader } from './read';

const { dir, kinds } = workerData as { dir: string; kinds: MutationKind[] };
const reader = converterReader(dir);

parentPort!.on('message', (seed: number) => {
  void runCase(seed, kinds, reader).then(
    (r) => parentPort!.postMessage(r),
    // runCase turns the reader's errors into violations: an error here is the harness's own
    (e: unknown) => parentPort!.postMessage({ seed, kinds: [], description: '(harness error)',
      violations: [{ invariant: 'a', detail: `harness error: ${(e as Error).stack ?? String(e)}`, reads: [] }] }),
  );
});
