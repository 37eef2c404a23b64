/** Sorting typed arrays of values with a second array carried along (series-distribution.ts). */

/**
 * Sorts entries `from` .. `to` of (value, owner) by value, ascending, through the scratch arrays
 * `sv` and `so` (of the same length): a merge sort, insertion sort below 16 entries, a merge
 * skipped where its halves are in order already, so that nearly sorted entries cost little more
 * than a look at each (the provider medians of series-distribution.ts come nearly in order), on
 * typed arrays and without a call of a comparison function per step.
 */
export function sortByValue(value: Float64Array, owner: Int32Array, from: number, to: number, sv: Float64Array, so: Int32Array): void {
  if (to - from <= 16) {
    for (let i = from + 1; i < to; i++) {
      const x = value[i]!;
      const o = owner[i]!;
      let j = i;
      for (; j > from && value[j - 1]! > x; j--) {
        value[j] = value[j - 1]!;
        owner[j] = owner[j - 1]!;
      }
      value[j] = x;
      owner[j] = o;
    }
    return;
  }
  const half = (from + to) >> 1;
  sortByValue(value, owner, from, half, sv, so);
  sortByValue(value, owner, half, to, sv, so);
  if (value[half - 1]! <= value[half]!) return;
  for (let i = from; i < half; i++) {
    sv[i] = value[i]!;
    so[i] = owner[i]!;
  }
  let a = from;
  let b = half;
  let k = from;
  while (a < half && b < to) {
    if (sv[a]! <= value[b]!) {
      value[k] = sv[a]!;
      owner[k++] = so[a++]!;
    } else {
      value[k] = value[b]!;
      owner[k++] = owner[b++]!;
    }
  }
  while (a < half) {
    value[k] = sv[a]!;
    owner[k++] = so[a++]!;
  }
}
