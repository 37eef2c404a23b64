/**
 * The MRF fuzz harness (scripts/fuzz): a short fixed-seed run against the converter's reader on
 * mutation kinds it handles today passes; readers with a planted fault (an item dropped under
 * one chunking, a price changed by the slow path, items lost in a mutated file, an id repeated, an
 * uncaught error) are each caught, so that the harness cannot pass silently. Files are generated
 * by the harness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFuzzCli } from '../../scripts/fuzz/cli';
import { MUTATION_KINDS, type MutationKind } from '../../scripts/fuzz/mutate';
import type { Reader } from '../../scripts/fuzz/read';
import { runFuzz, temporaryConverterReader } from '../../scripts/fuzz/run';

let real: Reader;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ reader: real, close } = await temporaryConverterReader());
});

afterAll(async () => {
  await close();
});

describe('the fuzz harness', () => {
  it('passes a fixed-seed run of the converter\'s reader on every mutation kind', async () => {
    const report = await runFuzz({ seed: 20260601, cases: 10, kinds: MUTATION_KINDS, reader: real });
    expect(report.failures.map((f) => f.violations)).toEqual([]);
    expect(report.cases).toBe(10);
    expect(Object.values(report.perKind).reduce((s, n) => s + n, 0)).toBeGreaterThanOrEqual(10);
    expect(report.splitCases).toBeGreaterThan(0);
  }, 120_000);

  it('passes the cases that found a stray { balanced by a bracket deleted later (items swallowed between the two)', async () => {
    // seed 1's cases 857038352 and 3026346326: a '{' inserted between two items, a '{' or '[' deleted
    // two or three items later
    const report = await runFuzz({ seed: 1, caseSeeds: [857038352, 3026346326], reader: real });
    expect(report.cases).toBe(2);
    expect(report.failures.map((f) => f.violations)).toEqual([]);
  }, 120_000);

  it('passes the case that found a stray { inside a number balanced by a [ deleted later (items swallowed between the two)', async () => {
    // case 1267535926 of a 900 s run: a '{' inserted in a rate of in_network[0], a '[' deleted in in_network[3]
    const report = await runFuzz({ seed: 1, caseSeeds: [1267535926], reader: real });
    expect(report.cases).toBe(1);
    expect(report.failures.map((f) => f.violations)).toEqual([]);
  }, 120_000);

  it('runs from its command line in a worker thread and exits 0 on a clean run', async () => {
    let out = '';
    const code = await runFuzzCli(['--cases', '2', '--seed', '7', '--kinds', 'none,extreme-number'], (t) => void (out += t), (t) => void (out += t));
    expect(out).toContain('2 cases');
    expect(code).toBe(0);
  }, 120_000);

  it('refuses a run without a bound, and unknown kinds', async () => {
    let err = '';
    expect(await runFuzzCli([], () => {}, (t) => void (err += t))).toBe(2);
    expect(await runFuzzCli(['--cases', '1', '--kinds', 'nope'], () => {}, (t) => void (err += t))).toBe(2);
    expect(err).toContain('invalid --kinds: nope');
  });

  const planted: Array<{ name: string; kinds: MutationKind[]; invariant: string; reader: (r: Reader) => Reader }> = [
    {
      name: 'an item dropped when the bytes come one at a time', kinds: ['none'], invariant: 'b',
      reader: (r) => async (bytes, mode) => {
        const o = await r(bytes, mode);
        return mode.chunk === 1 ? { ...o, items: o.items.slice(1) } : o;
      },
    },
    {
      name: 'a price changed by the slow path', kinds: ['none', 'extreme-number'], invariant: 'c',
      reader: (r) => async (bytes, mode) => {
        const o = await r(bytes, mode);
        return mode.slow ? { ...o, items: o.items.map((i, k) => (k === 0 ? { ...i, prices: i.prices.slice(1) } : i)) } : o;
      },
    },
    {
      name: 'untouched items lost in a file with a nested value added', kinds: ['deep-nesting'], invariant: 'd|expect',
      reader: (r) => async (bytes, mode) => {
        const o = await r(bytes, mode);
        // only a mutated file holds the key deep-nesting adds (to one item of two or more): every item is lost there
        return bytes.includes('"extra":') ? { ...o, items: [] } : o;
      },
    },
    {
      name: 'an item id repeated', kinds: ['none'], invariant: 'e',
      reader: (r) => async (bytes, mode) => {
        const o = await r(bytes, mode);
        return { ...o, items: o.items.map((i) => ({ ...i, id: 0 })) };
      },
    },
    {
      name: 'an uncaught error on gzip', kinds: ['none'], invariant: 'a',
      reader: (r) => (bytes, mode) => (mode.gzip ? Promise.reject(new TypeError('planted')) : r(bytes, mode)),
    },
  ];
  for (const p of planted) {
    it(`reports ${p.name}`, async () => {
      const report = await runFuzz({ seed: 99, cases: 2, kinds: p.kinds, reader: p.reader(real) });
      expect(report.failures).toHaveLength(2);
      for (const f of report.failures) expect(f.violations.map((v) => v.invariant).join(" ")).toMatch(new RegExp(`(^| )(${p.invariant})( |$)`));
    }, 60_000);
  }
});
