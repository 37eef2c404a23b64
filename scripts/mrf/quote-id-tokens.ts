/**
 * Keeps provider-group ids exactly as written (docs/converter.md, Quirks of real files: CareFirst `690.64470`
 * keeps its trailing zero, Anthem `40.0000000001` must not lose digits): before `JSON.parse` of an
 * element, the number tokens of every `"provider_group_id"` value and of every
 * `"provider_references"` array are rewritten as JSON strings holding the same text. Tokens that a
 * double reproduces exactly (plain integers of at most 15 digits, no leading zero) are left alone:
 * the normaliser turns those numbers back into the same text with `String(n)`.
 */

import { isWs } from './scan-bytes.js';

const BACKSLASH = 92;

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69;
}

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** True when `String(JSON.parse(token))` gives the token back. */
function roundTrips(text: string, start: number, end: number): boolean {
  let s = start;
  if (text.charCodeAt(s) === 45) s++;
  const len = end - s;
  if (len < 1 || len > 15) return false;
  if (len > 1 && text.charCodeAt(s) === 48) return false;
  for (let k = s; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return !(len === 1 && text.charCodeAt(s) === 48 && s > start); // "-0" prints as "0"
}

/** True when the `"` at `q` is not escaped (an even run of backslashes before it). */
function unescapedQuote(text: string, q: number): boolean {
  let k = q - 1;
  while (k >= 0 && text.charCodeAt(k) === BACKSLASH) k--;
  return (q - 1 - k) % 2 === 0;
}

/**
 * Rewrites the id number tokens of `text` as strings: the `provider_group_id` value in an element
 * of the root `provider_references[]`, the `provider_references` arrays (of negotiated_rates) in an
 * element of `in_network[]`. In valid JSON an unescaped `"provider_references"` followed by `:` can
 * only be a key, so plain `indexOf` finds them without a full scan. Returns `text` itself when
 * nothing needed quoting.
 */
export function quoteIdTokens(text: string, array: 'provider_references' | 'in_network'): string {
  let out = '';
  let copied = 0;
  const isArray = array === 'in_network';
  const key = isArray ? '"provider_references"' : '"provider_group_id"';
  let from = 0;
  for (;;) {
    const k = text.indexOf(key, from);
    if (k < 0) break;
    from = k + key.length;
    if (!unescapedQuote(text, k)) continue;
    let i = skipWs(text, from);
    if (text.charCodeAt(i) !== 58) continue; // not followed by ':' -> a string value, not a key
    i = skipWs(text, i + 1);
    if (isArray) {
      if (text.charCodeAt(i) !== 91) continue;
      i++;
    }
    for (;;) {
      i = skipWs(text, i);
      const start = i;
      while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
      if (i === start) break; // a string, ']' or something JSON.parse will judge
      if (!roundTrips(text, start, i)) {
        out += text.slice(copied, start) + '"' + text.slice(start, i) + '"';
        copied = i;
      }
      if (!isArray) break;
      i = skipWs(text, i);
      if (text.charCodeAt(i) !== 44) break;
      i++;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}
