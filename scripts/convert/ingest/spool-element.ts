/**
 * What a parser thread (parse-worker.ts) does with one element slice cut by the root scanner:
 * the fast path (fast-rates.ts) for an `in_network[]` item or a rate of a split item, else
 * `JSON.parse` and the normalisers (scripts/mrf), then the spool rows of its source (spool-rows.ts)
 * and its problems, counted per code, the first MAX_PER_KIND of each kept in full.
 */
import { duplicateKeys, firstInvalidUtf8, pathAt } from '../../mrf/json-checks';
import { openQuoteBefore } from '../../mrf/scan-bytes';
import { elementPath, type ElementContext } from '../../mrf/normalize-context';
import { normalizeInNetworkItem, normalizeRate } from '../../mrf/normalize-item';
import { normalizeProviderReference } from '../../mrf/normalize-provider';
import { parseElement } from '../../mrf/parse-element';
import type { MrfProblem } from '../../mrf/types';
import { FastRates } from './fast-rates';
import type { BatchMessage, SourceDone } from './parse-pool';
import { MAX_PER_KIND } from '../common/problems';
import { networkNamesText, SpoolRows } from '../spool/spool-rows';

/** What a parser thread holds for one source. */
export interface SourceState {
  rows: SpoolRows;
  fast: FastRates;
  counts: Record<string, number>;
  kept: MrfProblem[];
  items: number;
  providerReferences: number;
  remoteReferences: number;
}

/** A fresh state whose spool files are `<prefix>-<table>.csv`. */
export function sourceState(prefix: string, sourceId: number): SourceState {
  const rows = new SpoolRows(prefix, sourceId);
  return { rows, fast: new FastRates(rows), counts: {}, kept: [], items: 0, providerReferences: 0, remoteReferences: 0 };
}

function problem(s: SourceState, p: MrfProblem): void {
  const n = (s.counts[p.code] = (s.counts[p.code] ?? 0) + 1);
  if (n <= MAX_PER_KIND) s.kept.push(p);
}

/**
 * Spools every element of batch `m` into `s` (spoolElement, with the billing-code filter `keep`;
 * `forceSlow` as there), then starts new parts of the spool files that are full: what a parser
 * thread (parse-worker.ts) does with one batch, and InProcessPool (read-in-process.ts) on one thread.
 */
export function spoolBatch(s: SourceState, m: BatchMessage, keep: (code: string) => boolean, forceSlow = false): void {
  const buf = Buffer.from(m.buffer);
  const e = m.elements;
  for (let k = 0; k < e.length; k += 6) {
    spoolElement(s, buf, {
      kind: m.kind, index: e[k]!, rateIndex: e[k + 1]!, offset: e[k + 2]!, start: e[k + 3]!, end: e[k + 4]!, split: e[k + 5] === 1,
    }, keep, forceSlow);
  }
  s.rows.endBatch();
}

/** What `s` spooled for source `sourceId` (parse-pool.ts SourceDone), its spool files closed (`s` undefined: nothing spooled). */
export function closeSource(sourceId: number, s: SourceState | undefined): SourceDone {
  if (!s) return { sourceId, files: {}, valueCodes: 0, shapeCodes: 0, counts: {}, kept: [], items: 0, priceRows: 0, providerReferences: 0, remoteReferences: 0 };
  return {
    sourceId,
    files: s.rows.close(),
    valueCodes: s.rows.valueCodes,
    shapeCodes: s.rows.shapeCodes,
    counts: s.counts,
    kept: s.kept,
    items: s.items,
    priceRows: s.rows.priceRows,
    providerReferences: s.providerReferences,
    remoteReferences: s.remoteReferences,
  };
}

/** One element: where it is and what it is (parse-pool.ts BatchMessage, 6 numbers per element). */
export interface ElementSlice {
  kind: BatchMessage['kind'];
  /** Index in its root array (`in_network`, `provider_references`): the item id of a rate. */
  index: number;
  /** A split item's rate: its index in the item's negotiated_rates. */
  rateIndex: number;
  /** Byte offset in the decompressed stream. */
  offset: number;
  start: number;
  end: number;
  /** An item whose rates were cut out (item-splitter.ts). */
  split: boolean;
}

/**
 * Spools element `e` of `buf` into `s`; `keep` is the billing-code filter. `slow` forces the slow
 * path (tests, measurements). Returns the path taken: 'fast' or 'slow'.
 * @throws only on an I/O error of the spool files.
 */
export function spoolElement(s: SourceState, buf: Buffer, e: ElementSlice, keep: (code: string) => boolean, forceSlow = false): 'fast' | 'slow' {
  const { kind, index, rateIndex, offset, start, end } = e;
  const slow = forceSlow;
  if (kind === 'rate' && !slow && s.fast.rate(buf, start, end, index, rateIndex)) return 'fast';
  const path = kind === 'rate' ? elementPath('in_network', index, rateIndex) : elementPath(kind, index);
  if (kind === 'in_network' && !slow) {
    const ctx: ElementContext = { offset, problems: [] };
    const fast = s.fast.item(buf, start, end, index, e.split, ctx, path, keep);
    if (fast.done) {
      if (fast.kept) {
        s.items++;
        s.rows.item(index, fast.item!);
      } else if (fast.item) ctx.problems.length = 0; // filtered out: its problems do not concern the dataset
      for (const p of ctx.problems) problem(s, p);
      return 'fast';
    }
  }
  const parsed = parseElement(buf.subarray(start, end), kind === 'provider_references' ? 'provider_references' : 'in_network');
  if (!parsed.ok) {
    problem(s, { code: 'invalid_json', path, offset, message: `element is not valid JSON (${parsed.reason}); dropped` });
    return 'slow';
  }
  checkBytes(s, buf, e, path);
  const ctx: ElementContext = { offset, problems: [] };
  if (kind === 'rate') {
    const rate = normalizeRate(ctx, parsed.value, path);
    if (rate) s.rows.rate(index, rateIndex, rate);
  } else if (kind === 'provider_references') {
    const ref = normalizeProviderReference(ctx, parsed.value, path);
    if (ref) {
      s.providerReferences++;
      if (ref.providers.length === 0) {
        // A remote `location` group is not fetched here: it is spooled as a placeholder row, and
        // its problem stands for "not fetched". When remote references are fetched, index.ts takes
        // these problems back and spool-remote-groups.ts resolves the groups some rate names;
        // otherwise every rate naming it is counted as unresolved (docs/methodology.md, Rows that count).
        if (ref.location) s.remoteReferences++;
        ctx.problems.push({
          code: ref.location ? 'unresolved_remote_reference' : 'empty_provider_group',
          message: ref.location
            ? `provider group ${ref.provider_group_id} is remote (${ref.location}) and was not fetched; its rates are unresolved`
            : `provider group ${ref.provider_group_id} has no provider; its rates are unresolved`,
          path,
          offset,
        });
        s.rows.group(ref.provider_group_id, null, ref.location ?? null, index, networkNamesText(ref.network_name));
      } else {
        const networks = networkNamesText(ref.network_name);
        for (const p of ref.providers) s.rows.group(ref.provider_group_id, p, null, index, networks);
      }
    }
  } else {
    const item = normalizeInNetworkItem(ctx, parsed.value, path, e.split);
    if (item && keep(item.billing_code)) {
      s.items++;
      s.rows.item(index, item);
      item.negotiated_rates.forEach((r, k) => s.rows.rate(index, k, r));
    } else if (item) {
      ctx.problems.length = 0; // filtered out: its problems do not concern the dataset
    }
  }
  for (const p of ctx.problems) problem(s, p);
  return 'slow';
}

/**
 * Reports what JSON.parse let through silently in element `e` (parsed on the slow path): bytes
 * that are not UTF-8 (decoded as U+FFFD: `invalid_utf8`, at the first such byte) and keys written
 * twice in one object (the last value kept: `duplicate_key`). The fast path gives such elements up
 * (fast-rates.ts), so every one of them is checked here.
 */
function checkBytes(s: SourceState, buf: Buffer, e: ElementSlice, path: string): void {
  const bad = firstInvalidUtf8(buf, e.start, e.end);
  if (bad >= 0) {
    const at = pathAt(buf, e.start, e.end, Math.max(e.start, openQuoteBefore(buf, e.start, bad)), path);
    problem(s, { code: 'invalid_utf8', path: at, offset: e.offset + bad - e.start,
      message: `byte 0x${buf[bad]!.toString(16).padStart(2, '0')} is not UTF-8; the text is kept with U+FFFD in its place` });
  }
  for (const d of duplicateKeys(buf, e.start, e.end, path)) {
    // a split item's negotiated_rates written twice: the scanner reports it at its stream offset
    // (read-source.ts), which the head, without the rates' bytes, does not give
    if (e.split && d.path === `${path}.negotiated_rates`) continue;
    problem(s, { code: 'duplicate_key', path: d.path, offset: e.offset + d.at - e.start,
      message: `key ${JSON.stringify(d.key)} written twice in one object; the last value is kept` });
  }
}
