/**
 * A parser thread of the converter (architecture.md §5: parsing in worker_threads). It receives
 * batches of element slices cut by the main thread's root scanner, `JSON.parse`s and normalises
 * each (scripts/mrf), and writes the spool rows of its own CSV files (spool-rows.ts). Problems are
 * kept per source with bounded memory and returned when the main thread finishes the source.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ElementContext } from '../mrf/normalize-context';
import { normalizeInNetworkItem, normalizeRate } from '../mrf/normalize-item';
import { normalizeProviderReference } from '../mrf/normalize-provider';
import { parseElement } from '../mrf/parse-element';
import type { MrfProblem } from '../mrf/types';
import { MAX_PER_KIND } from './problems';
import { SpoolRows } from './spool-rows';
import { collectGarbage } from './collect-garbage';
import type { BatchMessage, SourceDone, WorkerReply } from './parse-pool';

const { id: workerId, billingCodes: codeList } = workerData as { id: number; billingCodes?: string[] };
const billingCodes = codeList ? new Set(codeList) : undefined;

interface SourceState {
  rows: SpoolRows;
  counts: Record<string, number>;
  kept: MrfProblem[];
  items: number;
  providerReferences: number;
  remoteReferences: number;
}

const sources = new Map<number, SourceState>();

function state(m: BatchMessage): SourceState {
  let s = sources.get(m.sourceId);
  if (!s) {
    s = { rows: new SpoolRows(`${m.dir}/w${workerId}-s${m.sourceId}`, m.sourceId), counts: {}, kept: [], items: 0, providerReferences: 0, remoteReferences: 0 };
    sources.set(m.sourceId, s);
  }
  return s;
}

function problem(s: SourceState, p: MrfProblem): void {
  const n = (s.counts[p.code] = (s.counts[p.code] ?? 0) + 1);
  if (n <= MAX_PER_KIND) s.kept.push(p);
}

/** Parses and spools one batch. */
function batch(m: BatchMessage): void {
  const s = state(m);
  const buf = Buffer.from(m.buffer);
  const e = m.elements;
  for (let k = 0; k < e.length; k += 6) {
    const [index, rateIndex, offset, start, end, split] = [e[k]!, e[k + 1]!, e[k + 2]!, e[k + 3]!, e[k + 4]!, e[k + 5]!];
    const bytes = buf.subarray(start, end);
    const path = m.kind === 'rate' ? `$.in_network[${index}].negotiated_rates[${rateIndex}]` : `$.${m.kind}[${index}]`;
    const parsed = parseElement(bytes, m.kind === 'provider_references' ? 'provider_references' : 'in_network');
    if (!parsed.ok) {
      problem(s, { code: 'invalid_json', path, offset, message: `element is not valid JSON (${parsed.reason}); dropped` });
      continue;
    }
    const ctx: ElementContext = { offset, problems: [] };
    if (m.kind === 'rate') {
      const rate = normalizeRate(ctx, parsed.value, path);
      if (rate) s.rows.rate(index, rateIndex, rate);
    } else if (m.kind === 'provider_references') {
      const ref = normalizeProviderReference(ctx, parsed.value, path);
      if (ref) {
        s.providerReferences++;
        if (ref.providers.length === 0) {
          // A remote `location` group is not fetched in this version: it stays unresolved and every
          // rate naming it is counted as such (metrics.md, Rows that count).
          if (ref.location) s.remoteReferences++;
          ctx.problems.push({
            code: ref.location ? 'unresolved_remote_reference' : 'empty_provider_group',
            message: ref.location
              ? `provider group ${ref.provider_group_id} is remote (${ref.location}) and was not fetched; its rates are unresolved`
              : `provider group ${ref.provider_group_id} has no provider; its rates are unresolved`,
            path,
            offset,
          });
          s.rows.group(ref.provider_group_id, null, ref.location ?? null);
        } else for (const p of ref.providers) s.rows.group(ref.provider_group_id, p, null);
      }
    } else {
      const item = normalizeInNetworkItem(ctx, parsed.value, path, split === 1);
      if (item && (!billingCodes || billingCodes.has(item.billing_code))) {
        s.items++;
        s.rows.item(index, item);
        item.negotiated_rates.forEach((r, k) => s.rows.rate(index, k, r));
      } else if (item) {
        ctx.problems.length = 0; // filtered out: its problems do not concern the dataset
      }
    }
    for (const p of ctx.problems) problem(s, p);
  }
}

function finish(sourceId: number): SourceDone {
  const s = sources.get(sourceId);
  sources.delete(sourceId);
  if (!s) return { sourceId, files: {}, counts: {}, kept: [], items: 0, priceRows: 0, providerReferences: 0, remoteReferences: 0 };
  return {
    sourceId,
    files: s.rows.close(),
    counts: s.counts,
    kept: s.kept,
    items: s.items,
    priceRows: s.rows.priceRows,
    providerReferences: s.providerReferences,
    remoteReferences: s.remoteReferences,
  };
}

parentPort!.on('message', (m: BatchMessage | { type: 'finish'; sourceId: number }) => {
  let reply: WorkerReply;
  try {
    if (m.type === 'finish') {
      reply = { type: 'done', done: finish(m.sourceId) };
      // the thread idles while DuckDB loads and aggregates: give back the parse's heap first
      collectGarbage();
    }
    else {
      batch(m);
      reply = { type: 'ack' };
    }
  } catch (e) {
    reply = { type: 'error', message: (e as Error).stack ?? String(e) };
  }
  parentPort!.postMessage(reply);
});
