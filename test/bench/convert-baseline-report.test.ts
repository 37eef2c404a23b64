/**
 * The report of bench/convert-baseline.bench.ts: medians over the runs, the ratios of the current
 * version's medians, and the target line said plainly whether met or missed. No timing is measured.
 */
import { describe, expect, it } from 'vitest';
import { median, reportLines, type VersionRuns } from '../../bench/convert-baseline-report';

const run = (seconds: number, cpuSeconds: number, rateRows = 1000): VersionRuns['runs'][number] =>
  ({ seconds, cpuSeconds, rateRows, maxRssMb: 400 });

describe('convert-baseline report', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(/no value/);
  });

  it('prints the ratios of the medians and the gap to the 0.5x target', () => {
    const lines = reportLines([
      { name: 'baseline 5a0c509', label: 'baseline', runs: [run(10, 20), run(12, 22), run(11, 21)] },
      { name: 'parent HEAD~1', label: 'parent', runs: [run(20, 40), run(22, 44), run(21, 42)] },
      { name: 'current (work tree)', label: 'current', runs: [run(30, 50, 999), run(19, 41, 999), run(20, 42, 999)] },
    ], 400e6, 1000);
    const text = lines.join('\n');
    expect(text).toMatch(/current \(work tree\)\s+20\.0 \(19\.0-30\.0\)\s+42\.0 \(41\.0-50\.0\)\s+400 \(400-400\)\s+999\s+20\.0/);
    expect(text).toContain('current/baseline: wall 1.82x, CPU 2.00x (medians)');
    expect(text).toContain('current/parent: wall 0.95x, CPU 1.00x (medians)');
    expect(text).toContain("target missed: 1.82x the baseline's wall; the target is 0.50x");
    expect(text).toContain('rate rows: baseline 1,000, parent 1,000, current 999 (the generator wrote 1,000)');
  });

  it('says the target is met at or under half the baseline, and what is missing when a version was skipped', () => {
    const met = reportLines([
      { name: 'baseline', label: 'baseline', runs: [run(10, 20)] },
      { name: 'current', label: 'current', runs: [run(5, 9)] },
    ], 1e6, 1000).join('\n');
    expect(met).toContain("target met: current wall is 0.50x the baseline's wall (target <= 0.50x)");
    expect(met).toContain('current/parent: not measured (the parent was skipped)');
    const alone = reportLines([{ name: 'current', label: 'current', runs: [run(5, 9)] }], 1e6, 1000).join('\n');
    expect(alone).toContain('target not checked: no baseline figures');
  });
});
