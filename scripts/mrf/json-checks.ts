/**
 * Checks of an element's bytes that `JSON.parse` cannot make, for the problems report.json records
 * (the bad-input limits of the README): keys written twice in one object (JSON.parse keeps
 * the last silently), bytes that are not UTF-8 (decoded as U+FFFD), and the JSON path of a byte
 * offset inside an element (for a problem found at a byte, such as an over-long string). They run
 * on the slow path and on rare findings only, never on the fast path's common case.
 */
import { isUtf8 } from 'node:buffer';
import { skipString } from './scan-bytes.js';

const QUOTE = 0x22;

/**
 * Index of the first byte of `b[start, end)` that does not begin a valid UTF-8 sequence there
 * (overlong forms, surrogates and code points past U+10FFFF are invalid, as RFC 3629 says), or -1
 * when every byte is valid. The common valid case costs one native check.
 */
export function firstInvalidUtf8(b: Uint8Array, start = 0, end = b.length): number {
  if (isUtf8(b.subarray(start, end))) return -1;
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    if (i + n >= end) return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k]!;
      if ((d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/** One key written twice in one object. */
export interface DuplicateKey {
  /** JSON path of the key's second occurrence, under the element's path. */
  path: string;
  key: string;
  /** Byte index of the second occurrence's opening quote. */
  at: number;
}

/** Path text of a key: `.key` when it is a plain name, else `["key"]`. */
const step = (key: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/** One open container of the walk. */
interface Level {
  /** An object's keys so far; null for an array. */
  keys: string[] | null;
  /** An array's current element index. */
  index: number;
  /** This container's step under its parent ('' for the element itself). */
  step: string;
}

/** The step of the value read next inside `level`: its key, or its index. */
const childStep = (level: Level): string => (level.keys ? step(level.keys[level.keys.length - 1] ?? '') : `[${level.index}]`);

/** The path of the value read next in the innermost open container. */
const valuePath = (prefix: string, levels: Level[]): string =>
  levels.length === 0 ? prefix : prefix + levels.map((l) => l.step).join('') + childStep(levels[levels.length - 1]!);

/**
 * Walks the JSON `b[start, end)` (one element, already known to parse): `onKey(levels, key, at)`
 * for every object key, `onValue(levels, at)` where every value starts; stops when either returns
 * true. Iterative, so any depth. Strings are skipped with native searches for their quotes.
 */
function walk(b: Uint8Array, start: number, end: number, onKey: (levels: Level[], key: string, at: number) => boolean,
  onValue?: (levels: Level[], at: number) => boolean): void {
  const levels: Level[] = [];
  let expectKey = false;
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c === QUOTE) {
      const s = i;
      const q = skipString(b, i + 1);
      if (q < 0 || q >= end) return;
      i = q + 1;
      const top = levels[levels.length - 1];
      if (expectKey && top?.keys) {
        const key = JSON.parse(Buffer.from(b.buffer, b.byteOffset + s, i - s).toString('utf8')) as string;
        if (onKey(levels, key, s)) return;
        top.keys.push(key);
        expectKey = false;
      } else if (onValue?.(levels, s)) return;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (onValue?.(levels, i)) return;
      const parent = levels[levels.length - 1];
      levels.push({ keys: c === 0x7b ? [] : null, index: 0, step: parent ? childStep(parent) : '' });
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      levels.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = levels[levels.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    } else if (c !== 0x3a && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
      // a number or a literal: to its end; without onValue, a run of numbers in an array at once
      // (a provider group's NPIs), counting its elements by their commas
      if (onValue?.(levels, i)) return;
      const top = levels[levels.length - 1];
      const run = !onValue && top !== undefined && top.keys === null;
      let j = i + 1;
      for (; j < end; j++) {
        const d = b[j]!;
        if (run && (d === 0x2c || (d >= 0x30 && d <= 0x39) || d === 0x20)) {
          if (d === 0x2c) top.index++;
        } else if (run || d === 0x2c || d === 0x5d || d === 0x7d || d <= 0x20) break;
      }
      i = j - 1;
    }
    i++;
  }
}

/**
 * Keys written twice in one object of the JSON `b[start, end)`, at most `max` of them, each with
 * the path of its second occurrence under `prefix` (the element's JSON path). JSON.parse keeps the
 * last value of such a key.
 */
export function duplicateKeys(b: Uint8Array, start: number, end: number, prefix: string, max = 10): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  walk(b, start, end, (levels, key, at) => {
    const top = levels[levels.length - 1]!;
    if (top.keys!.includes(key)) found.push({ path: prefix + levels.map((l) => l.step).join('') + step(key), key, at });
    return found.length >= max;
  });
  return found;
}

/**
 * The JSON path, under `prefix`, of the value (or key: the path then ends in ` (key)`) that starts
 * at byte `at` of the element `b[start, end)`; `prefix` when `at` is not where one starts.
 */
export function pathAt(b: Uint8Array, start: number, end: number, at: number, prefix: string): string {
  let path = prefix;
  walk(b, start, end, (levels, key, s) => {
    if (s !== at) return s > at;
    path = `${prefix}${levels.map((l) => l.step).join('')}${step(key)} (key)`;
    return true;
  }, (levels, s) => {
    if (s !== at) return s > at;
    path = valuePath(prefix, levels);
    return true;
  });
  return path;
}
