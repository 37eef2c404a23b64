/**
 * The screens benchmark's tables (bench/screens.bench.ts): per dataset, one row per route and one
 * per session step, each figure marked `!` when it misses its target (TARGETS; the figures of a
 * 2-core machine, docs/benchmarks.md).
 */
import type { StepTimes } from './screens-session';
import type { Visit } from './screens-visit';

/** The targets: times and sizes a screen must stay under. */
export const TARGETS = {
  firstContentMs: 1500,
  completeMs: 2500,
  stepP95Ms: 300,
  longestTaskMs: 200,
  /** Bytes received before complete (5 MB, decimal). */
  bytes: 5_000_000,
  /** The data worker's memory (1 GB, decimal). */
  workerBytes: 1_000_000_000,
} as const;

/** One route's two visits. */
export interface RouteRow {
  label: string;
  first: Visit;
  /** Null when not measured (tiny mode). */
  second: Visit | null;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
/** `text` with ' !' when `over` (a missed target), else two spaces, so columns stay aligned. */
const mark = (text: string, over: boolean) => `${text}${over ? ' !' : '  '}`;
const mb = (bytes: number) => (bytes / 1_000_000).toFixed(0);

/** The nearest-rank percentile `p` (0..100) of `xs` (not empty). */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Prints the routes' table. */
export function printRoutes(rows: readonly RouteRow[]): void {
  const w = Math.max(...rows.map((r) => r.label.length), 5);
  console.log(`  ${'route'.padEnd(w)}  ${'first content ms'.padStart(18)}  ${'complete ms'.padStart(13)}  ${'2nd visit complete ms'.padStart(23)}  ` +
    `${'KB 1st / 2nd visit'.padStart(22)}  ${'longest task ms'.padStart(17)}  worker MB (JS heap + WASM)`);
  for (const { label, first, second } of rows) {
    const longest = Math.max(first.longestTaskMs, second?.longestTaskMs ?? 0);
    const worker = first.worker ? first.worker.jsHeap + first.worker.wasm : null;
    const kb = `${int(first.bytes / 1000)} / ${second ? int(second.bytes / 1000) : '-'}`;
    console.log(`  ${label.padEnd(w)}  ${mark(int(first.firstMs), first.firstMs >= TARGETS.firstContentMs).padStart(18)}  ` +
      `${mark(int(first.completeMs), first.completeMs >= TARGETS.completeMs).padStart(13)}  ` +
      `${(second ? mark(int(second.completeMs), second.completeMs >= TARGETS.completeMs) : mark('-', false)).padStart(23)}  ` +
      `${mark(kb, Math.max(first.bytes, second?.bytes ?? 0) >= TARGETS.bytes).padStart(22)}  ` +
      `${mark(int(longest), longest > TARGETS.longestTaskMs).padStart(17)}  ` +
      `${worker === null || !first.worker ? '-' : mark(`${mb(worker)} (${mb(first.worker.jsHeap)} + ${mb(first.worker.wasm)})`, worker >= TARGETS.workerBytes)}`);
  }
  console.log(`  targets: first content < ${TARGETS.firstContentMs} ms, complete < ${TARGETS.completeMs} ms, < ${TARGETS.bytes / 1e6} MB before complete, ` +
    `no task > ${TARGETS.longestTaskMs} ms, worker < ${TARGETS.workerBytes / 1e9} GB; '!' marks a miss. Worker memory at the first visit's completion.`);
}

/** Prints the session's table. */
export function printSteps(steps: readonly StepTimes[], passes: number): void {
  const label = (s: StepTimes) => `${s.screen}: ${s.label}`;
  const w = Math.max(...steps.map((s) => label(s).length), 4);
  console.log(`\n  ${'step'.padEnd(w)}  ${'p50 ms'.padStart(8)}  ${'p95 ms'.padStart(8)}  ${'longest task ms'.padStart(17)}  passes`);
  for (const s of steps) {
    if (s.ms.length === 0) {
      console.log(`  ${label(s).padEnd(w)}  ${mark('n/a', false).padStart(8)}  ${mark('n/a', false).padStart(8)}  ${mark('-', false).padStart(17)}  0 (not on this screen or dataset)`);
      continue;
    }
    const p95 = percentile(s.ms, 95);
    console.log(`  ${label(s).padEnd(w)}  ${mark(int(percentile(s.ms, 50)), false).padStart(8)}  ${mark(int(p95), p95 >= TARGETS.stepP95Ms).padStart(8)}  ` +
      `${mark(int(s.longestTaskMs), s.longestTaskMs > TARGETS.longestTaskMs).padStart(17)}  ${s.ms.length}`);
  }
  console.log(`  targets: p95 < ${TARGETS.stepP95Ms} ms from the input event, no task > ${TARGETS.longestTaskMs} ms; '!' marks a miss (${passes} pass(es)).`);
}
