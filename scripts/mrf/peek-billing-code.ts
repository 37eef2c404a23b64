/**
 * Reads the `billing_code` of an `in_network[]` element from its bytes without parsing the element,
 * so `options.billingCodes` can skip items cheaply. It walks the element tracking depth and strings
 * and stops at the first key `"billing_code"` of the element's own object (depth 1, not one of
 * `bundled_codes[]`); publishers write it before `negotiated_rates`, so the walk is usually a few
 * hundred bytes.
 */

import { isWs } from './scan-bytes.js';

const KEY = Buffer.from('"billing_code"');

function skipWs(buf: Buffer, i: number): number {
  while (i < buf.length && isWs(buf[i]!)) i++;
  return i;
}

function keyAt(buf: Buffer, i: number): boolean {
  if (i + KEY.length > buf.length) return false;
  for (let k = 1; k < KEY.length; k++) if (buf[i + k] !== KEY[k]) return false;
  return true;
}

/**
 * The trimmed `billing_code` string of the element, or undefined when it cannot be known cheaply
 * (absent, not a string, holds escapes): the caller then parses the element in full.
 */
export function peekBillingCode(buf: Buffer): string | undefined {
  const n = buf.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = buf[i]!;
    if (c === 0x22) {
      if (depth === 1 && keyAt(buf, i)) {
        let j = skipWs(buf, i + KEY.length);
        if (buf[j] === 0x3a) {
          j = skipWs(buf, j + 1);
          if (buf[j] !== 0x22) return undefined;
          const end = buf.indexOf(0x22, j + 1);
          if (end < 0 || buf.subarray(j + 1, end).includes(0x5c)) return undefined;
          return buf.toString('utf8', j + 1, end).trim();
        }
      }
      // skip the string
      for (i++; i < n; i++) {
        const s = buf[i]!;
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/**
 * With a billing-code filter, an in_network element still open at a chunk end is peeked for its
 * `billing_code` within its first PEEK_BYTES; when the filter rejects the code, its bytes are no
 * longer kept (no copy across chunks) and it comes out as a `filtered` element without bytes.
 */
export const PEEK_BYTES = 64 * 1024;

/**
 * Peeks the code of an element whose first bytes are `parts` then `seg` (root-scanner.ts):
 * `decided` once the code is found or PEEK_BYTES were looked at, `rejected` when `keep` refuses it.
 */
export function peekRejected(parts: Buffer[], seg: Buffer, keep: (code: string) => boolean): { decided: boolean; rejected: boolean } {
  const first = seg.subarray(0, PEEK_BYTES);
  const head = parts.length === 0 ? first : Buffer.concat([...parts, first]);
  const code = peekBillingCode(head);
  if (code === undefined) return { decided: head.length >= PEEK_BYTES, rejected: false };
  return { decided: true, rejected: !keep(code) };
}
