/**
 * Reads the `billing_code` of an `in_network[]` element from its bytes without parsing the element,
 * so `options.billingCodes` can skip items cheaply. It walks the element tracking depth and strings
 * for the keys `"billing_code"` of the element's own object (depth 1, not one of `bundled_codes[]`)
 * and keeps the last one's value, as the parser does; publishers write it once, before
 * `negotiated_rates`, so the walk is usually a few hundred bytes.
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

/** A `billing_code` found by peekBillingCodeAt: its trimmed value and the index of its key's quote. */
export interface PeekedCode {
  code: string;
  at: number;
}

/**
 * The trimmed value of the LAST `billing_code` key of the element's own object (as `JSON.parse`,
 * which keeps a key's last value) and where its key is, or undefined when it cannot be known
 * cheaply (absent, the last one not a string or holding escapes): the caller then parses the
 * element in full. The walk stops at the first such key when `"billing_code"` occurs nowhere after
 * it (a native search), so an item is rarely walked past its first few hundred bytes.
 */
export function peekBillingCodeAt(buf: Buffer): PeekedCode | undefined {
  const first = walk(buf, true);
  if (first === undefined || first === null) return first ?? undefined;
  if (buf.indexOf(KEY, first.at + KEY.length) < 0) return first;
  return walk(buf, false) ?? undefined;
}

/** The trimmed last `billing_code` string of the element (peekBillingCodeAt), or undefined. */
export function peekBillingCode(buf: Buffer): string | undefined {
  return peekBillingCodeAt(buf)?.code;
}

/**
 * Walks the element for its depth-1 `billing_code` keys: the first one's value when `first`, else
 * the last one's; null when that value is not a string without escapes, undefined when there is none.
 */
function walk(buf: Buffer, first: boolean): PeekedCode | null | undefined {
  const n = buf.length;
  let depth = 0;
  let found: PeekedCode | null | undefined;
  for (let i = 0; i < n; i++) {
    const c = buf[i]!;
    if (c === 0x22) {
      if (depth === 1 && keyAt(buf, i)) {
        const j = skipWs(buf, i + KEY.length);
        if (buf[j] === 0x3a) {
          found = valueAt(buf, skipWs(buf, j + 1), i);
          if (first) return found;
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
  return found;
}

/** The string value starting at `j` of the key at `at`, or null when it is no plain string. */
function valueAt(buf: Buffer, j: number, at: number): PeekedCode | null {
  if (buf[j] !== 0x22) return null;
  const end = buf.indexOf(0x22, j + 1);
  if (end < 0 || buf.subarray(j + 1, end).includes(0x5c)) return null;
  return { code: buf.toString('utf8', j + 1, end).trim(), at };
}

/**
 * With a billing-code filter, an in_network element still open at a chunk end is peeked for its
 * `billing_code` within its first PEEK_BYTES; when the filter rejects the code, its bytes are no
 * longer kept (no copy across chunks) and it comes out as a `filtered` element without bytes.
 */
export const PEEK_BYTES = 64 * 1024;

/**
 * Peeks the code of an element whose first bytes are `parts` then `seg` (root-scanner.ts):
 * `decided` once the code is found or PEEK_BYTES were looked at, `rejected` when `keep` refuses it
 * (`code`, the last one in those bytes; a later one may still come, root-scanner.ts watches for it).
 */
export function peekRejected(parts: Buffer[], seg: Buffer, keep: (code: string) => boolean): { decided: boolean; rejected: boolean; code?: string } {
  const first = seg.subarray(0, PEEK_BYTES);
  const head = parts.length === 0 ? first : Buffer.concat([...parts, first]);
  const code = peekBillingCode(head);
  if (code === undefined) return { decided: head.length >= PEEK_BYTES, rejected: false };
  return { decided: true, rejected: !keep(code), code };
}
