/**
 * The root scanner's string skipper (architecture.md §5: split bytes before JSON.parse), for a
 * string a previous chunk left open: it jumps to the closing quote with `indexOf`. The container
 * loop itself is container-scan.ts.
 */

/**
 * Skips the rest of a string whose opening quote is before `i`: returns the index of its closing
 * quote, -1 when the chunk ends inside it, -2 when it ends right after a backslash (the next byte
 * is escaped). Uses `indexOf` for the quote and counts the backslashes before it.
 */
export function skipString(buf: Buffer, i: number): number {
  for (;;) {
    const q = buf.indexOf(0x22, i);
    if (q < 0) return buf[buf.length - 1] === 0x5c && backslashesBefore(buf, buf.length, i) % 2 === 1 ? -2 : -1;
    if (backslashesBefore(buf, q, i) % 2 === 0) return q;
    i = q + 1;
  }
}

/** Number of consecutive backslashes right before `end`, not looking before `from`. */
export function backslashesBefore(buf: Buffer, end: number, from: number): number {
  let k = end;
  while (k > from && buf[k - 1] === 0x5c) k--;
  return end - k;
}
