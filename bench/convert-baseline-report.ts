/**
 * The report of bench/convert-baseline.bench.ts: per version the median and range of each figure
 * over its runs, the ratios of the current version's medians to the baseline's and the parent's,
 * and the target line (current wall <= 0.5x the baseline's wall, docs/benchmarks.md).
 */
import type { Measured } from './convert-process';

/** The wall-time target: the current converter's median wall at most this fraction of the baseline's. */
export const TARGET_RATIO = 0.5;

/** One version's runs, in the order they ran. */
export interface VersionRuns {
  /** `baseline 5a0c509 (5a0c5098)` and the like. */
  name: string;
  label: string;
  runs: Measured[];
}

/** The median of `xs` (the mean of the two middle values for an even count). @throws Error on an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of no value');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function spread(xs: readonly number[], digits: number): string {
  const f = (x: number): string => x.toFixed(digits);
  return `${f(median(xs))} (${f(Math.min(...xs))}-${f(Math.max(...xs))})`;
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * The report's lines: a table of the versions (`wall s`, `CPU s` of every thread, `peak RSS MB`,
 * `rate rows`, `MB/s` of JSON over the median wall), ratios, the target line and the rate rows
 * side by side. `jsonBytes` is the file's uncompressed size; `generatedRows` the generator's count.
 */
export function reportLines(versions: readonly VersionRuns[], jsonBytes: number, generatedRows: number): string[] {
  const lines: string[] = [];
  const width = Math.max(28, ...versions.map((v) => v.name.length + 2));
  lines.push(`  ${'version'.padEnd(width)} ${'wall s'.padEnd(20)} ${'CPU s'.padEnd(20)} ${'peak RSS MB'.padEnd(18)} ${'rate rows'.padEnd(12)} MB/s`);
  for (const v of versions) {
    const wall = v.runs.map((r) => r.seconds);
    lines.push(`  ${v.name.padEnd(width)} ${spread(wall, 1).padEnd(20)} ${spread(v.runs.map((r) => r.cpuSeconds), 1).padEnd(20)} ` +
      `${spread(v.runs.map((r) => r.maxRssMb), 0).padEnd(18)} ${int(median(v.runs.map((r) => r.rateRows))).padEnd(12)} ` +
      `${(jsonBytes / 1e6 / median(wall)).toFixed(1)}`);
  }
  const by = (label: string): VersionRuns | undefined => versions.find((v) => v.label === label);
  const current = by('current');
  const wallOf = (v: VersionRuns): number => median(v.runs.map((r) => r.seconds));
  const cpuOf = (v: VersionRuns): number => median(v.runs.map((r) => r.cpuSeconds));
  for (const label of ['baseline', 'parent']) {
    const other = by(label);
    lines.push(current && other
      ? `current/${label}: wall ${(wallOf(current) / wallOf(other)).toFixed(2)}x, CPU ${(cpuOf(current) / cpuOf(other)).toFixed(2)}x (medians)`
      : `current/${label}: not measured (the ${label} was skipped)`);
  }
  const baseline = by('baseline');
  if (current && baseline) {
    const r = wallOf(current) / wallOf(baseline);
    lines.push(r <= TARGET_RATIO
      ? `target met: current wall is ${r.toFixed(2)}x the baseline's wall (target <= ${TARGET_RATIO.toFixed(2)}x)`
      : `target missed: ${r.toFixed(2)}x the baseline's wall; the target is ${TARGET_RATIO.toFixed(2)}x`);
  } else {
    lines.push(`target not checked: no baseline figures (target: current wall <= ${TARGET_RATIO.toFixed(2)}x the baseline's)`);
  }
  // the versions' counts may differ legitimately (validation and filters changed since 0.6): shown, not checked
  lines.push(`rate rows: ${versions.map((v) => `${v.label} ${[...new Set(v.runs.map((r) => int(r.rateRows)))].join('/')}`).join(', ')}` +
    ` (the generator wrote ${int(generatedRows)})`);
  return lines;
}
