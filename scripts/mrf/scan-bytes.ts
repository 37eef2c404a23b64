/**
 * The byte scanners' string searches (docs/architecture.md: split bytes before JSON.parse): the
 * closing quote of a string a previous chunk left open, with `indexOf`, and the opening quote of
 * the string a chunk ends in, looking back. Both count the backslashes before a quote. The
 * container loop itself is container-scan.ts.
 */

/**
 * Skips the rest of a string whose opening quote is before `i`: returns the index of its closing
 * quote, -1 when the chunk ends inside it, -2 when it ends right after a backslash (the next byte
 * is escaped). Uses `indexOf` for the quote and counts the backslashes before it.
 */
export function skipString(buf: Uint8Array, i: number): number {
  for (;;) {
    const q = buf.indexOf(0x22, i);
    if (q < 0) return buf[buf.length - 1] === 0x5c && backslashesBefore(buf, buf.length, i) % 2 === 1 ? -2 : -1;
    if (backslashesBefore(buf, q, i) % 2 === 0) return q;
    i = q + 1;
  }
}

/** Number of consecutive backslashes right before `end`, not looking before `from`. */
export function backslashesBefore(buf: Uint8Array, end: number, from: number): number {
  let k = end;
  while (k > from && buf[k - 1] === 0x5c) k--;
  return end - k;
}

/**
 * The opening quote of the string that `buf[from, end)` ends inside: the last quote before `end`
 * that no backslash escapes (inside a string every quote is escaped), or -1 when there is none
 * from `from` on (the string opened before `from`).
 */
export function openQuoteBefore(buf: Uint8Array, from: number, end: number): number {
  for (let q = end - 1; q >= from; q--) {
    if (buf[q] === 0x22 && backslashesBefore(buf, q, from) % 2 === 0) return q;
  }
  return -1;
}

/**
 * Where a number/true/false/null token that goes on at `i` ends (at the first byte that no such
 * token holds, isScalarByte: whitespace, ',', ']', '}', but also '{', '"' or a stray byte, which
 * the caller then reads on its own), or -1 at the chunk end.
 */
export function scalarEnd(buf: Uint8Array, i: number): number {
  for (; i < buf.length; i++) if (!isScalarByte(buf[i]!)) return i;
  return -1;
}

/**
 * Whether `c` can be part of a number, true, false, null (or the NaN / Infinity that
 * parse-element.ts tolerates): ASCII letters, digits, '+', '-', '.'. A damaged token is cut at
 * the first other byte, so a stray byte never makes it swallow the bracket of the next element.
 */
export function isScalarByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x2b || c === 0x2e;
}

/** Whether `c` starts a number, true, false, null, NaN or Infinity. */
export function isScalarStart(c: number): boolean {
  return c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e || c === 0x4e || c === 0x49;
}

/** Whether `c` starts a JSON value: an object, an array, a string or a scalar (isScalarStart). */
export function isValueStart(c: number): boolean {
  return c === 0x7b || c === 0x5b || c === 0x22 || isScalarStart(c);
}

/** JSON whitespace: space, line feed, carriage return, tab. */
export function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
