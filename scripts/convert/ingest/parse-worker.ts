/**
 * A parser thread of the converter (docs/architecture.md: parsing in worker_threads). It receives
 * batches of element slices cut by the main thread's root scanner, parses and normalises each
 * (spool-element.ts: the fast path of fast-rates.ts, or `JSON.parse` and scripts/mrf), and writes
 * the spool rows of its own CSV files (spool-rows.ts). Problems are kept per source with bounded
 * memory and returned when the main thread finishes the source.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from '../common/collect-garbage';
import type { BatchMessage, FinishMessage, SourceDone, WorkerReply } from './parse-pool';
import { closeSource, sourceState, spoolBatch, type SourceState } from './spool-element';

const { id: workerId, billingCodes: codeList } = workerData as { id: number; billingCodes?: string[] };
const billingCodes = codeList ? new Set(codeList) : undefined;
const keep = (code: string): boolean => !billingCodes || billingCodes.has(code);
/** Every element the slow way (`JSON.parse` and the normalisers), for measurements: COMPETE_SLOW_PARSE=1. */
const SLOW_ONLY = process.env.COMPETE_SLOW_PARSE === '1';

const sources = new Map<number, SourceState>();

function state(m: BatchMessage): SourceState {
  let s = sources.get(m.sourceId);
  if (!s) {
    s = sourceState(`${m.dir}/w${workerId}-s${m.sourceId}`, m.sourceId);
    sources.set(m.sourceId, s);
  }
  return s;
}

/** Parses and spools one batch (spool-element.ts). */
function batch(m: BatchMessage): void {
  spoolBatch(state(m), m, keep, SLOW_ONLY);
}

function finish(sourceId: number): SourceDone {
  const s = sources.get(sourceId);
  sources.delete(sourceId);
  return closeSource(sourceId, s);
}

parentPort!.on('message', (m: BatchMessage | FinishMessage) => {
  let reply: WorkerReply;
  try {
    if (m.type === 'finish') {
      reply = { type: 'done', done: finish(m.sourceId) };
      // the thread idles while DuckDB loads and aggregates: give back the parse's heap first
      if (m.collect) collectGarbage();
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
