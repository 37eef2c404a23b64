/**
 * One case of the fuzz harness: a file generated from the case's seed (generate.ts), mutated
 * (mutate.ts), read by the reader under test in every chunking and parse path (read.ts), and
 * checked (check.ts). Deterministic for a given seed and kind list.
 */
import { mulberry32 } from '../../contract/rules/prng';
import { compareReads, checkOutcome, signature, type Violation } from './check';
import { generateMrf, type GeneratedMrf } from './generate';
import { mutate, type Draw, type Mutation, type MutationKind } from './mutate';
import type { ReadMode, ReadOutcome, Reader } from './read';

/** What one case gave. */
export interface CaseResult {
  seed: number;
  kinds: MutationKind[];
  description: string;
  /** The lowered split threshold of the case, if any. */
  splitBytes?: number;
  /** Distinct violations, each with the reads that showed it. */
  violations: Array<Violation & { reads: string[] }>;
}

/** Bytes around the first mutated byte fed in fine chunks (1 and 3 bytes). */
const FINE_WINDOW = 1536;

/** A read mode's name in reports: `whole`, `chunk 3`, `gzip chunk 7`, `slow whole`, ... */
export function modeName(m: ReadMode): string {
  return `${m.slow ? 'slow ' : ''}${m.gzip ? 'gzip ' : ''}${m.chunk === 0 ? 'whole' : `chunk ${m.chunk}`}`;
}

/** The draw helpers over one PRNG. */
export function drawOf(rnd: () => number): Draw {
  const int = (n: number): number => Math.floor(rnd() * n);
  return { rnd, int, pick: (xs) => xs[int(xs.length)]! };
}

/**
 * The reads of a case: whole and in 4096, 64, 3 and 1-byte chunks (the fine ones around the
 * mutation only, past FINE_WINDOW; the 64-byte ones too past 64 KiB), gzip'd whole and in 7-byte chunks of the compressed bytes, and
 * the slow path whole and in 3-byte chunks; all with the case's split threshold.
 */
function readModes(bytes: number, firstByte: number, splitBytes: number | undefined): ReadMode[] {
  const fine = bytes <= 2 * FINE_WINDOW ? undefined : { start: Math.max(0, firstByte - FINE_WINDOW / 2), end: firstByte + FINE_WINDOW / 2 };
  const s = splitBytes !== undefined ? { splitBytes } : {};
  const f = fine ? { fine } : {};
  return [
    { chunk: 0, gzip: false, slow: false, ...s },
    { chunk: 4096, gzip: false, slow: false, ...s },
    { chunk: 64, gzip: false, slow: false, ...s, ...(bytes > 64 << 10 ? f : {}) },
    { chunk: 3, gzip: false, slow: false, ...s, ...f },
    { chunk: 1, gzip: false, slow: false, ...s, ...f },
    { chunk: 0, gzip: true, slow: false, ...s },
    { chunk: 7, gzip: true, slow: false, ...s, ...(bytes > 64 << 10 ? { fine: { start: 0, end: 4096 } } : {}) },
    { chunk: 0, gzip: false, slow: true, ...s },
    { chunk: 3, gzip: false, slow: true, ...s, ...f },
  ];
}

/** Adds a violation, merging the reads that show the same one. */
function add(list: CaseResult['violations'], v: Violation, read: string): void {
  const same = list.find((x) => x.invariant === v.invariant && x.detail === v.detail);
  if (same) {
    if (!same.reads.includes(read)) same.reads.push(read);
  } else list.push({ ...v, reads: [read] });
}

/**
 * Runs case `seed` drawing its mutation from `kinds` with `reader`.
 * @throws nothing the reader throws: an uncaught error is the violation (a).
 */
export async function runCase(seed: number, kinds: readonly MutationKind[], reader: Reader): Promise<CaseResult> {
  const d = drawOf(mulberry32(seed));
  // a lowered split threshold in 4 cases of 10, with an item well past it (read-source.ts splitBytes)
  const splitBytes = d.rnd() < 0.4 ? 300 + d.int(900) : undefined;
  const g: GeneratedMrf = generateMrf(d.int(2 ** 31), splitBytes !== undefined ? { largeItemBytes: splitBytes * (2 + d.int(3)) } : {});
  const codes = new Set(g.elements.flatMap((e) => (e.billingCode ? [g.bytes.subarray(e.billingCode.start, e.billingCode.end).toString().split('"')[3]!] : [])));
  const decoySeed = d.int(2 ** 31);
  const m = mutate(g, kinds, d, () => generateMrf(decoySeed, { avoidCodes: codes, items: 1 + (decoySeed % 4) }));
  const result: CaseResult = { seed, kinds: m.kinds, description: m.description, ...(splitBytes !== undefined ? { splitBytes } : {}), violations: [] };
  const read = async (bytes: Buffer, mode: ReadMode): Promise<ReadOutcome | null> => {
    try {
      return await reader(bytes, mode);
    } catch (e) {
      const err = e as Error;
      add(result.violations, { invariant: 'a', detail: `uncaught ${err.name}: ${err.message} (${(err.stack ?? '').split('\n')[1]?.trim() ?? ''})` }, modeName(mode));
      return null;
    }
  };
  const checked = new Map<string, Violation[]>();
  const whole: ReadMode = { chunk: 0, gzip: false, slow: false };
  const baseline = await read(g.bytes, whole);
  const decoy = m.decoy ? await read(m.decoy, whole) : undefined;
  for (const [what, o] of [['generated file', baseline], ['decoy file', decoy]] as const) {
    if (o && (o.fatal || o.problems.length > 0)) {
      add(result.violations, { invariant: 'generator', detail: `the ${what} is not clean: ${o.fatal?.reason ?? o.problems.map((p) => p.code).join(', ')}` }, 'whole');
    }
  }
  if (!baseline || decoy === null || result.violations.length > 0) return result;
  // (b) every fast read against the fast whole read; (c) every slow read against the fast read of its chunking
  const fast = new Map<string, ReadOutcome>();
  for (const mode of readModes(m.bytes.length, m.expect.firstByte, splitBytes)) {
    const o = await read(m.bytes, mode);
    if (!o) continue;
    const name = modeName(mode);
    const against = mode.slow ? name.slice('slow '.length) : 'whole';
    const other = fast.get(against);
    if (other && against !== name) {
      for (const diff of compareReads(other, o)) add(result.violations, { invariant: mode.slow ? 'c' : 'b', detail: `${against} vs this read: ${diff}` }, name);
    }
    if (!mode.slow) fast.set(name, o);
    const key = JSON.stringify(o);
    const found = checked.get(key) ?? checkOutcome(o, baseline, m.expect, m.bytes.length, decoy);
    checked.set(key, found);
    for (const v of found) add(result.violations, v, name);
  }
  await filteredReads(result, m.bytes, fast, [...baseline.items, ...(decoy?.items ?? [])].map((i) => i.billingCode ?? ''), m, d, splitBytes, read);
  return result;
}

/**
 * Reads again with a billing-code filter (the catalog's `billing_codes`) that leaves out one code
 * and, for `billing_code` written twice, the first value: the rows must be those of the unfiltered
 * fast read of the same chunking, of the codes kept (the scanner and the parser must judge an item by its last `billing_code`).
 */
async function filteredReads(result: CaseResult, bytes: Buffer, fast: ReadonlyMap<string, ReadOutcome>, codes: string[], m: Mutation, d: Draw,
  splitBytes: number | undefined, read: (bytes: Buffer, mode: ReadMode) => Promise<ReadOutcome | null>): Promise<void> {
  const whole = fast.get('whole');
  if (!whole || whole.fatal || codes.length === 0) return;
  const keep = new Set(codes);
  keep.delete(d.pick(codes));
  const twice = m.expect.billingCode;
  if (twice) {
    keep.add(twice.code);
    for (const c of m.expect.billingCodeWritten ?? []) if (c !== twice.code) keep.delete(c);
  }
  const s = splitBytes !== undefined ? { splitBytes } : {};
  const filter = { billingCodes: [...keep].sort() };
  // each with the case's split threshold, as the unfiltered reads: a damaged item that is split
  // loses only its damaged rate, unsplit it is lost whole, so both reads must split alike
  for (const mode of [{ chunk: 0, gzip: false, slow: false, ...s, ...filter }, { chunk: 3, gzip: false, slow: false, ...s, ...filter },
    { chunk: 0, gzip: false, slow: true, ...s, ...filter }] as ReadMode[]) {
    // against the unfiltered fast read of the same chunking: chunkings may split different items (compareReads)
    const unfiltered = fast.get(modeName({ ...mode, slow: false }));
    const o = await read(bytes, mode);
    if (!o || !unfiltered || unfiltered.fatal) continue;
    const want = unfiltered.items.filter((i) => keep.has(i.billingCode ?? '')).map((i) => signature(i)).sort();
    const got = o.items.map((i) => signature(i)).sort();
    if (JSON.stringify(got) !== JSON.stringify(want) || o.fatal) {
      const codesOf = (xs: string[]): string => xs.map((x) => (JSON.parse(x) as unknown[])[1]).join(', ');
      add(result.violations, { invariant: 'filter', detail: `with the filter leaving out ${codes.filter((c) => !keep.has(c)).join(', ')}: ` +
        `${o.fatal ? `refused (${o.fatal.reason})` : `missing [${codesOf(want.filter((x) => !got.includes(x)))}], unexpected [${codesOf(got.filter((x) => !want.includes(x)))}]`}` },
      `filtered ${modeName(mode)}`);
    }
  }
}
