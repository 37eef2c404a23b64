/**
 * Mutations of a generated MRF (generate.ts) for the fuzz harness, each with what a correct reader
 * must still give (check.ts): which elements it touched (only those may be lost or changed),
 * whether the file stays valid JSON (then it must not be refused), and the exact rows expected for
 * the mutations whose effect the converter documents (README.md, Bad input: the limits: a key
 * written twice keeps the last value; a string over 1 MiB is cut; bytes that are not UTF-8 become
 * U+FFFD; an element nested past 64 levels is dropped).
 */
import type { ElementMap, GeneratedMrf, Span } from './generate';

/** Every mutation kind, in the order the report lists them. */
export const MUTATION_KINDS = [
  'none', 'stray-byte-between', 'stray-byte-inside', 'flip-byte', 'truncate', 'duplicate-in-network', 'duplicate-billing-code',
  'delete-bracket', 'delete-quote', 'extreme-number', 'long-string', 'deep-nesting', 'invalid-utf8', 'control-char-id',
] as const;

export type MutationKind = (typeof MUTATION_KINDS)[number];

/** One byte edit in the original file's offsets: bytes [start, end) replaced by `insert`. */
interface Edit extends Span {
  insert: Buffer;
}

/** What the checks expect of a mutated file. */
export interface Expectation {
  /** Elements whose bytes the mutation changed: they may be lost or come out changed. */
  touched: ElementMap[];
  /** Per mutation between two elements: at most one of the two may be lost. */
  mayLoseOneOf: ElementMap[][];
  /** Touched in_network elements that must come out with their billing code and prices unchanged (only a string value changed). */
  samePrices: ElementMap[];
  /** The file is valid JSON (or a tolerated defect): it must be read, not refused. */
  mustRead: boolean;
  /** The file is truncated: it must be refused. */
  mustRefuse: boolean;
  /** Nothing but JSON whitespace changed: the rows must be the original's. */
  identical: boolean;
  /** The first byte the mutation changed (a refusal must name an offset at or after it). */
  firstByte: number;
  /** `in_network` written twice: the rows must be those of this array (the last one). */
  lastArray?: 'decoy' | 'original';
  /** `billing_code` written twice in item `index`: its rows carry `code` (the last value). */
  billingCode?: { index: number; code: string };
  /** ... and both values written, in file order. */
  billingCodeWritten?: string[];
  /**
   * Quotes deleted or added (a string's end lost or a string opened): JSON's string state is
   * inverted from `byte` on, so the element holding it may swallow the elements after it, which
   * the reader cannot tell apart from its own bytes. Elements starting after `byte` (original
   * offsets) may be lost, but never silently: only when the read reports a problem at or after
   * `element`, the stream offset in the mutated file of the first byte of the element holding it
   * (the reader reports an element that is not JSON at its first byte); `after`: those elements.
   */
  quoteDamage?: Array<{ byte: number; element: number; after: ElementMap[] }>;
  /** A group id renamed everywhere to `to`: the only new id the rows may name. */
  renamedId?: { from: string; to: string };
}

/** A mutated file and what is expected of it. */
export interface Mutation {
  kinds: MutationKind[];
  /** A short, exact description (kind, offset, bytes), enough to reproduce by hand. */
  description: string;
  bytes: Buffer;
  expect: Expectation;
  /** Bytes of a second in_network array (duplicate-in-network): read alone as the decoy's baseline. */
  decoy?: Buffer;
}

/** The PRNG helpers a mutation draws from. */
export interface Draw {
  rnd: () => number;
  int: (n: number) => number;
  pick: <T>(xs: readonly T[]) => T;
}

const STRAY = [0x0c, 0x00, 0xff, 0x78, 0x20, 0x09, 0x0a, 0x0d, 0x1f, 0x7b, 0x5d];
const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const EXTREME = ['5e-324', '4.9e-324', '1e400', '-1e400', '1e-400', '1.7976931348623157e308', '123456789012345678901234567890', '-0', '0.0000000000000000000001'];
const BAD_UTF8 = [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0x80]];

function hex(b: Buffer | number[]): string {
  return [...b].map((c) => `0x${c.toString(16).padStart(2, '0')}`).join(' ');
}

function name(e: ElementMap): string {
  return `${e.array}[${e.index}]`;
}

const inside = (at: number, s: Span): boolean => at > s.start && at < s.end - 1;

/** Applies non-overlapping edits (original offsets). */
function applyEdits(bytes: Buffer, edits: Edit[]): Buffer {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const parts: Buffer[] = [];
  let at = 0;
  for (const e of sorted) {
    parts.push(bytes.subarray(at, e.start), e.insert);
    at = e.end;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

function baseExpect(firstByte: number): Expectation {
  return { touched: [], mayLoseOneOf: [], samePrices: [], mustRead: true, mustRefuse: false, identical: true, firstByte };
}

/** One local edit of kind `kind` with its expectation, or null when the file offers no target for it. */
interface LocalEdit {
  edit: Edit;
  description: string;
  expect: Partial<Expectation> & { touched: ElementMap[] };
  /** A quote deleted or added at `edit.start` in element `in` (Expectation quoteDamage). */
  quote?: ElementMap;
}

/** The element holding offset `at`, if any. */
function elementAt(g: GeneratedMrf, at: number): ElementMap | undefined {
  return g.elements.find((e) => at >= e.start && at < e.end);
}

/** Whether `at` is strictly inside one of the element's generated string values (name, description). */
function inStringValue(e: ElementMap, at: number): boolean {
  return e.strings.some((s) => inside(at, s));
}

function localEdit(kind: MutationKind, g: GeneratedMrf, d: Draw): LocalEdit | null {
  const items = g.elements.filter((e) => e.array === 'in_network');
  switch (kind) {
    case 'stray-byte-between': {
      if (g.gaps.length === 0) return null;
      const gap = d.pick(g.gaps);
      const c = d.pick(STRAY);
      const ws = WS.has(c);
      // a byte that is not JSON, or a '{' (root-scanner.ts elementHead), is skipped with a problem;
      // a stray ']' closes the array early, so the file may be refused after it
      const closes = c === 0x5d;
      return { edit: { start: gap.at, end: gap.at, insert: Buffer.from([c]) },
        description: `insert ${hex([c])} at ${gap.at}, between ${name(gap.before)} and ${name(gap.after)}`,
        expect: { touched: [], mayLoseOneOf: closes ? [[gap.before, gap.after]] : [], mustRead: !closes, identical: ws } };
    }
    case 'stray-byte-inside':
    case 'flip-byte': {
      const e = d.pick(g.elements);
      const at = e.start + 1 + d.int(e.end - e.start - 2);
      const old = g.bytes[at]!;
      const c = kind === 'flip-byte' ? old ^ (1 + d.int(255)) : d.pick(STRAY);
      // a printable byte or a non-ASCII one in a name or description changes that text only
      // (an escape's backslash, or the byte after it, excepted: either edit breaks the escape)
      const textOnly = inStringValue(e, at) && c !== 0x22 && c !== 0x5c && c >= 0x20 && g.bytes[at - 1] !== 0x5c && (kind === 'flip-byte' ? old !== 0x5c : true);
      const edit = kind === 'flip-byte' ? { start: at, end: at + 1, insert: Buffer.from([c]) } : { start: at, end: at, insert: Buffer.from([c]) };
      const quote = kind === 'flip-byte' && (old === 0x22 || c === 0x22) ? { quote: e } : {};
      return { edit, description: `${kind === 'flip-byte' ? `flip ${hex([old])} to` : 'insert'} ${hex([c])} at ${at} in ${name(e)}${textOnly ? ' (in a text value)' : ''}`,
        expect: { touched: [e], samePrices: textOnly && e.array === 'in_network' ? [e] : [], mustRead: textOnly, identical: false }, ...quote };
    }
    case 'delete-bracket':
    case 'delete-quote': {
      const wanted = kind === 'delete-quote' ? [0x22] : [0x7b, 0x7d, 0x5b, 0x5d];
      // now and then a bracket of the root structure (the in_network array's, the root's closing brace)
      if (kind === 'delete-bracket' && d.rnd() < 0.2) {
        const at = d.pick([g.inNetworkArray.start, g.inNetworkArray.end - 1, g.rootEnd]);
        return { edit: { start: at, end: at + 1, insert: Buffer.alloc(0) }, description: `delete ${hex([g.bytes[at]!])} at ${at} (root structure)`,
          expect: { touched: g.elements.filter((e) => e.array === 'in_network' || e.start > at), mustRead: false, identical: false } };
      }
      const e = d.pick(g.elements);
      const at: number[] = [];
      for (let k = e.start; k < e.end; k++) if (wanted.includes(g.bytes[k]!)) at.push(k);
      const k = d.pick(at);
      return { edit: { start: k, end: k + 1, insert: Buffer.alloc(0) }, description: `delete ${hex([g.bytes[k]!])} at ${k} in ${name(e)}`,
        expect: { touched: [e], mustRead: false, identical: false }, ...(kind === 'delete-quote' ? { quote: e } : {}) };
    }
    case 'extreme-number': {
      const withRates = items.filter((e) => e.rates.length > 0);
      const e = d.pick(withRates);
      const span = d.pick(e.rates);
      const v = d.pick(EXTREME);
      return { edit: { ...span, insert: Buffer.from(v) }, description: `negotiated_rate at ${span.start} in ${name(e)} -> ${v}`,
        expect: { touched: [e], identical: false } };
    }
    case 'long-string': {
      const e = d.pick(items);
      const span = d.pick(e.strings);
      // mostly under the 1 MiB limit (kept whole); now and then over it (cut, string_too_long)
      const n = d.rnd() < 0.15 ? (1 << 20) + 1 + d.int(5000) : 20000 + d.int(50000);
      const text = `"${'long text '.repeat(Math.ceil(n / 10)).slice(0, n)}"`;
      return { edit: { ...span, insert: Buffer.from(text) }, description: `string at ${span.start} in ${name(e)} -> ${n} bytes`,
        expect: { touched: [e], samePrices: [e], identical: false } };
    }
    case 'deep-nesting': {
      const e = d.pick(items);
      const depth = d.pick([20, 63, 64, 65, 200, 5000]);
      const text = `,"extra":${'['.repeat(depth)}${']'.repeat(depth)}`;
      const at = e.end - 1; // before the item's closing brace
      return { edit: { start: at, end: at, insert: Buffer.from(text) }, description: `array nested ${depth} deep added at ${at} in ${name(e)}`,
        // the item itself is level 1: the nested array brings it to depth + 1 (root-scanner.ts MAX_NESTING)
        expect: { touched: [e], samePrices: depth + 1 <= 64 ? [e] : [], identical: false } };
    }
    case 'invalid-utf8': {
      const e = d.pick(items);
      const span = d.pick(e.strings);
      const at = span.start + 1 + d.int(span.end - span.start - 2);
      if (g.bytes[at]! >= 0x80 || g.bytes[at - 1] === 0x5c || g.bytes[at] === 0x5c) return null;
      const bad = Buffer.from(d.pick(BAD_UTF8));
      return { edit: { start: at, end: at + 1, insert: bad }, description: `byte at ${at} in a text of ${name(e)} -> ${hex(bad)}`,
        expect: { touched: [e], samePrices: [e], identical: false } };
    }
    default:
      return null;
  }
}

/** Kinds that can be combined in one file (each edits a few bytes of its own). */
const LOCAL: MutationKind[] = ['stray-byte-between', 'stray-byte-inside', 'flip-byte', 'delete-bracket', 'delete-quote', 'extreme-number',
  'long-string', 'deep-nesting', 'invalid-utf8'];

/** Combines local edits (non-overlapping, at most one per element) into one mutation. */
function combine(g: GeneratedMrf, kinds: MutationKind[], locals: LocalEdit[]): Mutation {
  const ex = baseExpect(Math.min(...locals.map((l) => l.edit.start)));
  for (const l of locals) {
    ex.touched.push(...l.expect.touched);
    ex.mayLoseOneOf.push(...(l.expect.mayLoseOneOf ?? []));
    ex.samePrices.push(...(l.expect.samePrices ?? []));
    ex.mustRead &&= l.expect.mustRead ?? true;
    ex.identical &&= l.expect.identical ?? false;
    if (l.quote) {
      // the element's first byte in the mutated file: shifted by the edits before it
      const shift = locals.filter((o) => o.edit.start < l.quote!.start).reduce((n, o) => n + o.edit.insert.length - (o.edit.end - o.edit.start), 0);
      (ex.quoteDamage ??= []).push({ byte: l.edit.start, element: l.quote.start + shift, after: g.elements.filter((e) => e.start > l.edit.start) });
    }
  }
  return { kinds, description: locals.map((l) => l.description).join('; '), bytes: applyEdits(g.bytes, locals.map((l) => l.edit)), expect: ex };
}

/**
 * One mutation of `g` drawn from `kinds` (one kind, or two or three local ones at once), with its
 * expectation. `decoyOf` generates the decoy array of `duplicate-in-network`.
 */
export function mutate(g: GeneratedMrf, kinds: readonly MutationKind[], d: Draw, decoyOf: () => GeneratedMrf): Mutation {
  const kind = d.pick(kinds);
  switch (kind) {
    case 'none':
      return { kinds: [kind], description: 'no mutation', bytes: g.bytes, expect: baseExpect(g.bytes.length) };
    case 'truncate': {
      const at = 1 + d.int(g.rootEnd);
      const ex = baseExpect(at);
      return { kinds: [kind], description: `truncate to ${at} of ${g.bytes.length} bytes`, bytes: g.bytes.subarray(0, at),
        expect: { ...ex, touched: g.elements.filter((e) => e.end > at), mustRead: false, mustRefuse: true, identical: false } };
    }
    case 'duplicate-in-network': {
      const decoy = decoyOf();
      const pair = decoy.bytes.subarray(decoy.inNetworkPair.start, decoy.inNetworkPair.end);
      const decoyLast = d.rnd() < 0.5;
      // the decoy pair goes right before or right after the original pair, separated by a comma
      const at = decoyLast ? g.inNetworkPair.end : g.inNetworkPair.start;
      const insert = decoyLast ? Buffer.concat([Buffer.from(','), pair]) : Buffer.concat([pair, Buffer.from(',')]);
      const ex = baseExpect(at);
      return { kinds: [kind], description: `in_network written twice, the ${decoyLast ? 'second' : 'first'} (${decoy.elements.filter((e) => e.array === 'in_network').length} items) inserted at ${at}`,
        bytes: applyEdits(g.bytes, [{ start: at, end: at, insert }]), decoy: decoy.bytes,
        expect: { ...ex, identical: false, lastArray: decoyLast ? 'decoy' : 'original' } };
    }
    case 'duplicate-billing-code': {
      const e = d.pick(g.elements.filter((x) => x.array === 'in_network'));
      const span = e.billingCode!;
      const code = `D${10000 + d.int(90000)}`;
      const pair = `"billing_code":"${code}"`;
      const after = d.rnd() < 0.5;
      const edit = after ? { start: span.end, end: span.end, insert: Buffer.from(`,${pair}`) } : { start: span.start, end: span.start, insert: Buffer.from(`${pair},`) };
      const original = g.bytes.subarray(span.start, span.end).toString().split(':')[1]!.slice(1, -1);
      const ex = baseExpect(edit.start);
      return { kinds: [kind], description: `billing_code written twice in ${name(e)}: ${after ? `${original} then ${code}` : `${code} then ${original}`} (at ${edit.start})`,
        bytes: applyEdits(g.bytes, [edit]), expect: { ...ex, identical: false, billingCode: { index: e.index, code: after ? code : original },
          billingCodeWritten: after ? [original, code] : [code, original] } };
    }
    case 'control-char-id': {
      const ids = [...new Set(g.elements.flatMap((e) => e.ids.map((x) => x.id)))];
      if (ids.length === 0) return mutate(g, ['stray-byte-between'], d, decoyOf);
      const from = d.pick(ids);
      const cut = 1 + d.int(from.length - 1);
      const to = `${from.slice(0, cut)}\x1f${from.slice(cut)}`;
      const edits: Edit[] = [];
      const touched: ElementMap[] = [];
      for (const e of g.elements) {
        const mine = e.ids.filter((x) => x.id === from);
        if (mine.length > 0) touched.push(e);
        for (const x of mine) edits.push({ ...x.span, insert: Buffer.from(JSON.stringify(to)) });
      }
      const ex = baseExpect(Math.min(...edits.map((e) => e.start)));
      return { kinds: [kind], description: `group id ${JSON.stringify(from)} renamed ${JSON.stringify(to)} (U+001F) in ${touched.map(name).join(', ')}`,
        bytes: applyEdits(g.bytes, edits), expect: { ...ex, touched, identical: false, renamedId: { from, to } } };
    }
    default: {
      const n = d.rnd() < 0.7 ? 1 : 2 + d.int(2);
      const locals: LocalEdit[] = [];
      const kindsUsed: MutationKind[] = [];
      const localKinds = kinds.filter((k) => LOCAL.includes(k));
      for (let tries = 0; locals.length < n && tries < 20; tries++) {
        const k = locals.length === 0 ? kind : d.pick(localKinds);
        const l = localEdit(k, g, d);
        if (!l) continue;
        // one edit per element and per gap, so that each expectation stays its own
        const clash = locals.some((o) => rangesMeet(o, l, g));
        if (clash) continue;
        locals.push(l);
        kindsUsed.push(k);
      }
      if (locals.length === 0) return mutate(g, ['none'], d, decoyOf);
      return combine(g, kindsUsed, locals);
    }
  }
}

/** Whether two edits touch the same element, or sit near enough (the same gap) to blur their expectations. */
function rangesMeet(a: LocalEdit, b: LocalEdit, g: GeneratedMrf): boolean {
  const near = (x: Edit, y: Edit): boolean => x.start <= y.end + 2 && y.start <= x.end + 2;
  if (near(a.edit, b.edit)) return true;
  const own = (l: LocalEdit): Set<ElementMap> => new Set([...l.expect.touched, ...(l.expect.mayLoseOneOf ?? []).flat(),
    ...[elementAt(g, l.edit.start)].filter((e): e is ElementMap => e !== undefined)]);
  const sa = own(a);
  return [...own(b)].some((e) => sa.has(e)) || a.expect.touched.length > 3 || b.expect.touched.length > 3;
}
