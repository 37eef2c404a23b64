/**
 * Reads the `billing_code` of an `in_network[]` element from its bytes without parsing the element,
 * so `options.billingCodes` can skip items cheaply. It walks the element tracking depth and strings
 * and stops at the first key `"billing_code"` of the element's own object (depth 1, not one of
 * `bundled_codes[]`); publishers write it before `negotiated_rates`, so the walk is usually a few
 * hundred bytes.
 */

const KEY = Buffer.from('"billing_code"');

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

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
