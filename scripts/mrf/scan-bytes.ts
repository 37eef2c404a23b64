/**
 * Byte-level helpers shared by the root scanner and the item splitter (architecture.md §5: split
 * bytes before JSON.parse): a class table for the bytes that matter in a JSON container (quote,
 * brackets) and a string skipper that jumps to the closing quote with `indexOf`.
 */

/** Byte classes of the container scan: 0 plain, quote, opening and closing brackets. */
export const C_QUOTE = 1;
export const C_OPEN = 2;
export const C_CLOSE = 3;
export const CLASS = new Uint8Array(256);
CLASS[0x22] = C_QUOTE;
CLASS[0x7b] = C_OPEN;
CLASS[0x5b] = C_OPEN;
CLASS[0x7d] = C_CLOSE;
CLASS[0x5d] = C_CLOSE;

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
