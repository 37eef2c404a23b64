/**
 * Shared helpers of the element normalisers: the problem collector and readers of raw `JSON.parse`
 * values (`unknown`) that never throw.
 */
import type { MrfProblem } from './types.js';

/** Where an element came from, and where its tolerated problems go. */
export interface ElementContext {
  /** Byte offset of the element start in the decompressed stream. */
  offset: number;
  problems: MrfProblem[];
}

export type JsonObject = Record<string, unknown>;

/** Records a tolerated problem at `path` (docs/converter.md, What it reads, and what it does with bad input: report.json gets file, path, offset). */
export function report(ctx: ElementContext, code: string, path: string, message: string): void {
  ctx.problems.push({ code, path, offset: ctx.offset, message });
}

/**
 * The JSON path of a negotiated rate: `path` itself, or `<path>.negotiated_rates[<index>]` with an
 * index (normalize-item.ts builds it only when it reports a problem).
 */
export const ratePath = (path: string, index: number | undefined): string =>
  index === undefined ? path : `${path}.negotiated_rates[${index}]`;

/**
 * The JSON path of an element the root scanner cuts (root-scanner.ts): `$.in_network[3]`,
 * `$.provider_references[0]`, or with `rateIndex` a rate of a split item,
 * `$.in_network[3].negotiated_rates[7]`.
 */
export const elementPath = (array: 'in_network' | 'provider_references', index: number, rateIndex?: number): string =>
  ratePath(`$.${array}[${index}]`, rateIndex);

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string field as published; numbers as their text; '' for anything else (absent, null, ...). */
export function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}

/** Characters of a value a problem message shows. */
const DESCRIBE_CHARS = 60;

/**
 * Short printable form of a bad value for a problem message: at most DESCRIBE_CHARS characters.
 * Walks the value with its own stack and stops once it has enough text, so neither a value nested
 * 100,000 deep (JSON.stringify recurses) nor a string of hundreds of MB costs more than that.
 */
export function describe(v: unknown): string {
  if (v === undefined) return 'absent';
  if (typeof v === 'number' && !Number.isFinite(v)) return `${v} (out of range)`;
  let s = '';
  // what is left to write, last first: values, or text already made (a closing bracket, a key)
  const todo: Array<{ text: string } | { value: unknown }> = [{ value: v }];
  while (todo.length > 0 && s.length <= DESCRIBE_CHARS) {
    const next = todo.pop()!;
    if ('text' in next) {
      s += next.text;
      continue;
    }
    const x = next.value;
    if (Array.isArray(x)) {
      s += '[';
      todo.push({ text: ']' });
      // no more elements than characters can be shown
      const n = Math.min(x.length, DESCRIBE_CHARS);
      if (x.length > n) todo.push({ text: ',...' });
      for (let k = n - 1; k >= 0; k--) {
        todo.push({ value: x[k] as unknown });
        if (k > 0) todo.push({ text: ',' });
      }
    } else if (isObject(x)) {
      s += '{';
      todo.push({ text: '}' });
      const keys = Object.keys(x).slice(0, DESCRIBE_CHARS).reverse();
      keys.forEach((key, k) => {
        todo.push({ value: x[key] }, { text: `${JSON.stringify(key.slice(0, DESCRIBE_CHARS))}:` });
        if (k < keys.length - 1) todo.push({ text: ',' });
      });
    } else if (typeof x === 'string') s += JSON.stringify(x.slice(0, DESCRIBE_CHARS + 1));
    else s += JSON.stringify(x) ?? String(x);
  }
  return s.length > DESCRIBE_CHARS || todo.length > 0 ? `${s.slice(0, DESCRIBE_CHARS - 3)}...` : s;
}

/** An enum value as compared and kept: trimmed, lower case. */
const enumText = (v: string): string => v.trim().toLowerCase();

/**
 * What enumValue returns for a known value of `known`, without a path or a problem; null for
 * anything else (the caller then takes enumValue, which reports it): the normalisers' fast path.
 */
export function knownEnumValue(v: unknown, known: ReadonlySet<string>): string | null {
  if (typeof v !== 'string') return null;
  const s = enumText(v);
  return known.has(s) ? s : null;
}

/**
 * A lower-cased enum value. Unknown non-empty values are kept (lower case) and reported as
 * `unknown_enum`; absent/empty values give '' and, when `required`, a `missing_field` problem; a
 * value of another type gives '' and an `invalid_field` problem.
 */
export function enumValue(ctx: ElementContext, v: unknown, known: ReadonlySet<string>, path: string, required: boolean): string {
  if (v !== undefined && v !== null && typeof v !== 'string') {
    report(ctx, 'invalid_field', path, `not a string: ${describe(v)}`);
    return '';
  }
  const s = typeof v === 'string' ? enumText(v) : '';
  if (s === '') {
    if (required) report(ctx, 'missing_field', path, `missing or empty: ${describe(v)}`);
    return '';
  }
  if (!known.has(s)) report(ctx, 'unknown_enum', path, `unknown value ${JSON.stringify(s)}; kept`);
  return s;
}

/**
 * A sorted, deduplicated list of upper-cased codes; a bare string or number counts as a list of one,
 * empty strings are dropped. `pad2` pads one-digit place-of-service codes ("1" -> "01").
 */
export function codeList(v: unknown, pad2: boolean): string[] {
  const raw = Array.isArray(v) ? (v as unknown[]) : v === undefined || v === null ? [] : [v];
  if (raw.length === 0) return [];
  const out: string[] = [];
  for (let k = 0; k < raw.length; k++) {
    const x = raw[k];
    let s = typeof x === 'string' ? x.trim().toUpperCase() : text(x).trim().toUpperCase();
    if (s === '') continue;
    if (pad2 && s.length === 1 && s >= '0' && s <= '9') s = `0${s}`;
    out.push(s);
  }
  if (out.length < 2) return out;
  out.sort();
  // most lists have no repeated code: no second array for them
  let repeated = false;
  for (let k = 1; k < out.length && !repeated; k++) repeated = out[k] === out[k - 1];
  return repeated ? out.filter((s, k) => k === 0 || s !== out[k - 1]) : out;
}
