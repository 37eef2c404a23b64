/**
 * A full garbage collection of the calling thread, for the moments the converter changes phase
 * (a source read, its rows about to be loaded into DuckDB): V8 otherwise keeps the garbage of the
 * streaming phase (decompressed chunks, parsed elements) resident while DuckDB grows, and the
 * process's peak RSS is the sum of both (peak RSS under 600 MB, docs/benchmarks.md). Uses V8's `gc` through
 * `--expose-gc` set at run time; a no-op when V8 refuses.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/** Runs a full GC of this thread's heap (a few milliseconds for the converter's small heaps). */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    const f = runInNewContext('gc') as unknown;
    gc = typeof f === 'function' ? (f as () => void) : null;
  }
  gc?.();
}
