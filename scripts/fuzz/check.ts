/**
 * The invariants the fuzz harness checks on the outcomes of one case (scripts/fuzz/cli.ts lists
 * them): one outcome whatever the chunking (b) and the parse path (c), the items a mutation did not
 * touch kept (d), item ids unique within a source (e), the last `in_network` array's rows only (f),
 * and the documented effect of the other mutations (mutate.ts Expectation). Each returns the
 * violations found as short sentences; none means the outcome is correct.
 */
import type { ElementMap } from './generate';
import type { Expectation } from './mutate';
import type { ItemRows, ReadOutcome } from './read';

/**
 * A violated invariant and what was seen: a-f as listed above, `expect` a documented effect,
 * `filter` a read with a billing-code filter that does not give the unfiltered rows of the codes
 * kept, `generator` a generated file that is not clean (the harness's own fault).
 */
export interface Violation {
  invariant: 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'expect' | 'filter' | 'generator';
  detail: string;
}

/** An item's content without its id: what "the same item" means across reads and files. */
export function signature(i: ItemRows, code = i.billingCode): string {
  return JSON.stringify([i.billingCodeType, code, i.name, i.description, i.arrangement, i.prices]);
}

/** An item's billing code and prices only (its texts may change under a mutation of a text). */
function pricesSignature(i: ItemRows): string {
  return JSON.stringify([i.billingCodeType, i.billingCode, i.arrangement, i.prices]);
}

/** Removes one `x` from the multiset `m`; false when absent. */
function take(m: Map<string, number>, x: string): boolean {
  const n = m.get(x) ?? 0;
  if (n === 0) return false;
  m.set(x, n - 1);
  return true;
}

function multiset(xs: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

const PATH_ITEM = /^\$\.in_network\[(\d+)\]/;

/** The in_network index a problem's path names, or -1. */
function itemOfPath(path: string): number {
  const m = PATH_ITEM.exec(path);
  return m ? Number(m[1]) : -1;
}

/** Problems that drop a whole element: an item whose rates came apart drops a rate instead. */
const DROPPING = new Set(['invalid_json', 'nesting_too_deep', 'invalid_field', 'missing_field']);

/**
 * Differences between two reads of the same bytes (b, c). The scanner splits a large item
 * (item-splitter.ts) only where a chunk ends inside it past the threshold, so two chunkings may
 * split different items: an item split in one read and not in the other is compared by its rows
 * and its problems' codes and paths (a split item's problems name its rates' offsets), and not at
 * all when one of the reads dropped something of it (a bad rate drops the rate of a split item,
 * the whole item otherwise).
 */
export function compareReads(a: ReadOutcome, b: ReadOutcome): string[] {
  const out: string[] = [];
  if (JSON.stringify(a.fatal) !== JSON.stringify(b.fatal)) out.push(`refusal ${JSON.stringify(a.fatal)} vs ${JSON.stringify(b.fatal)}`);
  if (a.header !== b.header) out.push(`header ${a.header} vs ${b.header}`);
  const splitA = new Set(a.split);
  const splitB = new Set(b.split);
  const differ = new Set([...a.split.filter((i) => !splitB.has(i)), ...b.split.filter((i) => !splitA.has(i))]);
  const dropped = new Set<number>();
  for (const p of [...a.problems, ...b.problems]) {
    const i = itemOfPath(p.path);
    if (differ.has(i) && DROPPING.has(p.code)) dropped.add(i);
  }
  const byId = (o: ReadOutcome): Map<number, string[]> => {
    const m = new Map<number, string[]>();
    for (const i of o.items) if (!dropped.has(i.id)) m.set(i.id, [...(m.get(i.id) ?? []), signature(i)]);
    return m;
  };
  const ia = byId(a);
  const ib = byId(b);
  for (const id of new Set([...ia.keys(), ...ib.keys()])) {
    const x = JSON.stringify(ia.get(id) ?? []);
    const y = JSON.stringify(ib.get(id) ?? []);
    if (x !== y) out.push(`item ${id}: ${x.slice(0, 300)} vs ${y.slice(0, 300)}`);
  }
  // an item's inline (v1) groups are spooled with its rates: an item dropped in one read lacks them
  const groupRows = (o: ReadOutcome): string[] => (dropped.size === 0 ? o.groups : o.groups.filter((g) => !g.startsWith('["inline:')));
  if (JSON.stringify(groupRows(a)) !== JSON.stringify(groupRows(b))) {
    const gb = new Set(groupRows(b));
    const ga = new Set(groupRows(a));
    out.push(`group rows differ (${a.groups.length} vs ${b.groups.length}): only in one [${groupRows(a).filter((g) => !gb.has(g)).slice(0, 2).join(' ')}], ` +
      `only in the other [${groupRows(b).filter((g) => !ga.has(g)).slice(0, 2).join(' ')}]`);
  }
  if (dropped.size === 0 && a.orphanPrices !== b.orphanPrices) out.push(`orphan prices ${a.orphanPrices} vs ${b.orphanPrices}`);
  const key = (p: ReadOutcome['problems'][number]): string | null => {
    const i = itemOfPath(p.path);
    if (dropped.has(i)) return null;
    return differ.has(i) ? `${p.code} ${p.path}` : `${p.code} ${p.path} @${p.offset}`;
  };
  const pa = a.problems.map(key).filter((k): k is string => k !== null).sort();
  const pb = b.problems.map(key).filter((k): k is string => k !== null).sort();
  if (JSON.stringify(pa) !== JSON.stringify(pb)) {
    const onlyA = pa.filter((x) => !pb.includes(x));
    const onlyB = pb.filter((x) => !pa.includes(x));
    out.push(`problems: only in one [${onlyA.slice(0, 4).join(', ')}], only in the other [${onlyB.slice(0, 4).join(', ')}]`);
  }
  if (differ.size === 0 && JSON.stringify(a.counts) !== JSON.stringify(b.counts)) out.push(`problem counts ${JSON.stringify(a.counts)} vs ${JSON.stringify(b.counts)}`);
  return out;
}

/** The baseline's item of in_network element `e` (its id is its index in an unmutated file). */
function baselineItem(baseline: ReadOutcome, e: ElementMap): ItemRows | undefined {
  return baseline.items.find((i) => i.id === e.index);
}

/**
 * The checks of one read of a mutated file against the baseline (the unmutated file's rows) and
 * the mutation's expectation (d, e, f and the documented effects). `decoy` is the baseline of the
 * decoy array of `duplicate-in-network`.
 */
export function checkOutcome(o: ReadOutcome, baseline: ReadOutcome, ex: Expectation, fileBytes: number, decoy?: ReadOutcome): Violation[] {
  const v: Violation[] = [];
  const ids = o.items.map((i) => i.id);
  const repeated = ids.filter((id, k) => ids.indexOf(id) !== k);
  if (repeated.length > 0) v.push({ invariant: 'e', detail: `item ids repeat within the source: ${[...new Set(repeated)].slice(0, 5).join(', ')}` });
  if (o.fatal) {
    if (ex.mustRead) v.push({ invariant: 'd', detail: `a readable file was refused: ${o.fatal.reason} at byte ${o.fatal.offset}` });
    else if (o.fatal.offset < ex.firstByte || o.fatal.offset > fileBytes) {
      v.push({ invariant: 'd', detail: `refused at byte ${o.fatal.offset}, outside the mutated part [${ex.firstByte}, ${fileBytes}] (${o.fatal.reason})` });
    }
    return v;
  }
  if (ex.mustRefuse) v.push({ invariant: 'd', detail: `a truncated file was read (${o.items.length} items) instead of refused` });
  const got = multiset(o.items.map((i) => signature(i)));
  const exact = (want: ItemRows[], what: string, code?: { index: number; code: string }): void => {
    const expected = want.map((i) => signature(i, code && i.id === code.index ? code.code : i.billingCode)).sort();
    const actual = o.items.map((i) => signature(i)).sort();
    if (JSON.stringify(expected) !== JSON.stringify(actual)) {
      const missing = expected.filter((x) => !actual.includes(x)).map((x) => (JSON.parse(x) as unknown[])[1]);
      const extra = actual.filter((x) => !expected.includes(x)).map((x) => (JSON.parse(x) as unknown[])[1]);
      v.push({ invariant: what === 'last array' ? 'f' : 'expect', detail: `rows are not those of the ${what}: ${expected.length} items expected, ${actual.length} read; ` +
        `missing codes [${missing.join(', ')}], unexpected codes [${extra.join(', ')}]` });
    }
  };
  if (ex.lastArray) {
    exact(ex.lastArray === 'decoy' ? decoy?.items ?? [] : baseline.items, 'last array');
    return v;
  }
  if (ex.billingCode) {
    exact(baseline.items, `original file with billing code ${ex.billingCode.code} (the last one written) in in_network[${ex.billingCode.index}]`, ex.billingCode);
    return v;
  }
  if (ex.identical) {
    exact(baseline.items, 'unmutated file');
    if (o.problems.length > 0) v.push({ invariant: 'd', detail: `whitespace only changed, yet problems: ${o.problems.slice(0, 3).map((p) => `${p.code} ${p.path}`).join(', ')}` });
    return v;
  }
  const touched = new Set(ex.touched);
  const between = new Set(ex.mayLoseOneOf.flat());
  // after a quote deleted or added, the elements after it may be lost when a problem tells (Expectation quoteDamage)
  const told = (ex.quoteDamage ?? []).filter((q) => o.problems.some((p) => p.offset >= q.element));
  const lossTold = told.flatMap((q) => q.after);
  const mayLose = (array: ElementMap['array'], match: (e: ElementMap) => boolean): boolean => lossTold.some((e) => e.array === array && match(e));
  const items = baseline.items;
  const elementOf = new Map<number, ElementMap>();
  for (const e of [...touched, ...between]) if (e.array === 'in_network') elementOf.set(e.index, e);
  // untouched items: each must come out exactly as in the unmutated file
  for (const i of items) {
    const e = elementOf.get(i.id);
    if (e && (touched.has(e) || between.has(e))) continue;
    if (mayLose('in_network', (x) => x.index === i.id)) continue;
    if (!take(got, signature(i))) v.push({ invariant: 'd', detail: `item in_network[${i.id}] (code ${i.billingCode}), not touched by the mutation, is lost or changed` });
  }
  // a mutation between two elements loses at most one of them
  for (const pair of ex.mayLoseOneOf) {
    const lost = pair.filter((e) => e.array === 'in_network' && !touched.has(e)).filter((e) => {
      const i = baselineItem(baseline, e);
      return i !== undefined && !take(got, signature(i));
    });
    if (lost.length > 1) v.push({ invariant: 'd', detail: `a mutation between two elements lost both: ${lost.map((e) => `in_network[${e.index}]`).join(', ')}` });
  }
  // a mutation of a text (or an unknown key added) keeps its item, code and prices
  const rest = o.items.filter((i) => (got.get(signature(i)) ?? 0) > 0);
  const restPrices = multiset(rest.map(pricesSignature));
  for (const e of ex.samePrices) {
    if (lossTold.includes(e)) continue;
    const i = baselineItem(baseline, e);
    if (i && !take(restPrices, pricesSignature(i))) {
      v.push({ invariant: 'expect', detail: `in_network[${e.index}] (code ${i.billingCode}): the mutation keeps its code and prices (a text or an unknown key changed), yet the item or its prices changed` });
    }
  }
  const extra = [...got.values()].reduce((s, n) => s + n, 0);
  // elements after a told quote loss may come out changed too (their bytes read with strings inverted)
  const allowed = new Set([...touched, ...lossTold].filter((e) => e.array === 'in_network')).size + ex.mayLoseOneOf.length;
  if (extra > allowed) v.push({ invariant: 'd', detail: `${extra} items read that the unmutated file does not have (at most ${allowed} touched)` });
  // provider groups: the rows of every untouched provider_references element are kept
  const groups = multiset(o.groups);
  const touchedGroups = new Set([...touched, ...between].filter((e) => e.groupId !== undefined).map((e) => e.groupId));
  for (const row of baseline.groups) {
    const id = (JSON.parse(row) as string[])[0]!;
    if (id.startsWith('inline:') || touchedGroups.has(id) || (ex.renamedId && id === ex.renamedId.from)) continue;
    if (mayLose('provider_references', (x) => x.groupId === id)) continue;
    if (!take(groups, row)) v.push({ invariant: 'd', detail: `provider group ${id}, not touched by the mutation, lost a row` });
  }
  if (ex.renamedId) {
    const known = new Set(baseline.items.flatMap((i) => i.prices.flatMap((p) => ((JSON.parse(p) as [number, number, string[] | null])[2] ?? []))));
    known.add(ex.renamedId.to);
    for (const i of o.items) {
      for (const p of i.prices) {
        const named = (JSON.parse(p) as [number, number, string[] | null])[2] ?? [];
        const wrong = named.filter((g) => !known.has(g));
        if (wrong.length > 0) {
          v.push({ invariant: 'expect', detail: `in_network[${i.id}] names group ids ${JSON.stringify(wrong)}, pieces of ${JSON.stringify(ex.renamedId.to)}` });
          return v;
        }
      }
    }
  }
  return v;
}
