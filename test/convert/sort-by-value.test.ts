/** sortByValue (scripts/convert/build/stats/sort-by-value.ts) against Array.prototype.sort, on random and nearly sorted entries with ties. */
import { describe, expect, it } from 'vitest';
import { sortByValue } from '../../scripts/convert/build/stats/sort-by-value';
import { Rng } from '../../scripts/sample/rng';

describe('sortByValue', () => {
  it('sorts a range of (value, owner) pairs by value, each pair kept together, the rest untouched', () => {
    const rng = new Rng(7);
    for (let round = 0; round < 300; round++) {
      const n = rng.int(0, 300);
      const nearly = round % 2 === 0;
      // nearly sorted: ascending with a few entries moved down, as the provider medians come
      const values = Array.from({ length: n }, (_, i) => (nearly ? i - (rng.next() < 0.2 ? rng.int(0, 40) : 0) : rng.int(0, 50)) / 4);
      const from = rng.int(0, 3);
      const value = new Float64Array(n + from + 2).fill(-1);
      const owner = new Int32Array(n + from + 2).fill(-1);
      values.forEach((v, i) => {
        value[from + i] = v;
        owner[from + i] = i;
      });
      sortByValue(value, owner, from, from + n, new Float64Array(value.length), new Int32Array(value.length));
      const want = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
      const got = Array.from({ length: n }, (_, i) => [value[from + i]!, owner[from + i]!] as const);
      expect(got.map((e) => e[0])).toEqual(want.map((e) => e[0]));
      expect(got.every(([v, o]) => values[o] === v)).toBe(true);
      expect(new Set(got.map((e) => e[1])).size).toBe(n);
      expect([...value.subarray(0, from), ...value.subarray(from + n)]).toEqual([...Array(from).fill(-1), -1, -1]);
    }
  });
});
