/**
 * The fast path's code lists (fast-rates.ts): a price's `service_code` or `billing_code_modifier`
 * value, as bytes, written to the CSV spool the way SpoolRows writes codeList(value, pad2)
 * (normalize-context.ts: trimmed, upper case, sorted, without repeats, a one-digit place of service
 * padded, docs/converter.md, Quirks of real files): copied when it is already in that form, else through `JSON.parse` and
 * codeList, so both ways give the same field.
 */
import { codeList } from '../../mrf/normalize-context';
import { firstInvalidUtf8 } from '../../mrf/json-checks';
import { BAIL, COMMA, LBRACKET, NINE, QUOTE, RBRACKET, SPACE, utf8, ZERO } from './json-cursor';
import type { CsvFile } from '../spool/csv-file';

/**
 * The code list whose value is `b[s, e)` (-1: absent), as SpoolRows writes codeList(value, pad2):
 * copied when it is an array of upper-case alphanumeric codes already sorted without repeats
 * (a single one-digit code padded when `pad2`), else through `JSON.parse` and codeList.
 * @throws SyntaxError when the value is not JSON (the caller has validated it).
 */
export function writeCodeList(f: CsvFile, b: Uint8Array, s: number, e: number, pad2: boolean): void {
  if (s < 0) {
    f.codes([]);
    return;
  }
  if (b[s] !== LBRACKET) return slowCodes(f, b, s, e, pad2);
  // pass 1: every element a plain code of [0-9A-Z], strictly ascending
  let n = 0;
  let prevS = -1;
  let prevE = -1;
  let i = s + 1;
  for (;;) {
    while (b[i] === SPACE || b[i] === 10 || b[i] === 13 || b[i] === 9) i++;
    if (b[i] === RBRACKET) break;
    if (b[i] !== QUOTE) return slowCodes(f, b, s, e, pad2);
    const cs = ++i;
    while (isCodeByte(b[i]!)) i++;
    if (b[i] !== QUOTE || i === cs) return slowCodes(f, b, s, e, pad2);
    const ce = i++;
    if (prevS >= 0 && compareBytes(b, prevS, prevE, cs, ce) >= 0) return slowCodes(f, b, s, e, pad2);
    if (pad2 && ce - cs === 1 && b[cs]! <= NINE) {
      if (n > 0 || !isLastElement(b, i)) return slowCodes(f, b, s, e, pad2);
    }
    prevS = cs;
    prevE = ce;
    n++;
    while (b[i] === SPACE || b[i] === 10 || b[i] === 13 || b[i] === 9) i++;
    if (b[i] === COMMA) i++;
  }
  if (n === 0) {
    f.codes([]);
    return;
  }
  if (n === 1) {
    if (pad2 && prevE - prevS === 1 && b[prevS]! <= NINE) f.byte(ZERO);
    f.ascii(b, prevS, prevE);
    return;
  }
  // pass 2: "a,b,c"
  f.byte(QUOTE);
  let first = true;
  for (i = s + 1; b[i] !== RBRACKET; i++) {
    if (b[i] !== QUOTE) continue;
    const cs = ++i;
    while (b[i] !== QUOTE) i++;
    if (!first) f.byte(COMMA);
    first = false;
    f.ascii(b, cs, i);
  }
  f.byte(QUOTE);
}

function slowCodes(f: CsvFile, b: Uint8Array, s: number, e: number, pad2: boolean): void {
  // text that is not UTF-8 is reported by the slow path (spool-element.ts)
  if (firstInvalidUtf8(b, s, e) >= 0) throw BAIL;
  f.codes(codeList(JSON.parse(utf8(b, s, e)) as unknown, pad2));
}

/** A byte a code is copied with: 0-9, A-Z (what trim + upper case leaves as it is). */
function isCodeByte(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 65 && c <= 90);
}

/** True when only whitespace stands between `i` and the `]` that closes the list. */
function isLastElement(b: Uint8Array, i: number): boolean {
  while (b[i] === SPACE || b[i] === 10 || b[i] === 13 || b[i] === 9) i++;
  return b[i] === RBRACKET;
}

/** Byte order of `b[as, ae)` and `b[bs, be)` (what `sort()` does on ASCII strings). */
function compareBytes(b: Uint8Array, as: number, ae: number, bs: number, be: number): number {
  const n = Math.min(ae - as, be - bs);
  for (let k = 0; k < n; k++) {
    const d = b[as + k]! - b[bs + k]!;
    if (d !== 0) return d;
  }
  return ae - as - (be - bs);
}
