/**
 * The converter's parser threads (docs/architecture.md: "parsing in worker_threads doubled
 * throughput on 2 cores"). The main thread decompresses and cuts elements (read-source.ts); this
 * pool hands batches of element bytes to `jobs` workers (parse-worker.ts), at most two batches in
 * flight per worker so memory stays bounded, and collects what each worker spooled per source.
 */
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { MrfProblem } from '../../mrf/types';
import type { SpoolFiles } from '../spool/spool-rows';
import { collectGarbage } from '../common/collect-garbage';
import { startModuleWorker } from '../common/module-worker';

/** A batch of elements of one kind; `elements` holds 6 numbers per element:
 * index, rateIndex, offset, start, end (in `buffer`), split (1 for a split item's head). */
export interface BatchMessage {
  type: 'batch';
  sourceId: number;
  dir: string;
  kind: 'provider_references' | 'in_network' | 'rate';
  buffer: ArrayBuffer;
  elements: number[];
}

/** What a worker spooled for one source. */
export interface SourceDone {
  sourceId: number;
  files: SpoolFiles;
  /** The value codes its `raw_values` gives (SpoolRows.valueCodes), for spool.ts loadPrices. */
  valueCodes: number;
  /** The shape codes its `raw_shapes` gives (SpoolRows.shapeCodes). */
  shapeCodes: number;
  /** Problems by code, and the first MAX_PER_KIND of each in full. */
  counts: Record<string, number>;
  kept: MrfProblem[];
  items: number;
  priceRows: number;
  providerReferences: number;
  remoteReferences: number;
}

export type WorkerReply = { type: 'ack' } | { type: 'done'; done: SourceDone } | { type: 'error'; message: string };

const MAX_IN_FLIGHT = 2;

/**
 * Bytes of elements handed to the threads since the last full garbage collection below which a
 * finished source collects none (bytes): a full collection of every thread costs about 0.1 CPU s
 * whatever the source's size, which a catalog of many small files would pay once a file, while
 * the streaming garbage it drops before DuckDB grows is in proportion to the bytes parsed.
 */
export const COLLECT_AFTER_BYTES = 32 * 2 ** 20;

/** The message that ends a source on a thread; `collect`: run a full garbage collection after it. */
export interface FinishMessage {
  type: 'finish';
  sourceId: number;
  collect: boolean;
}

/** Starts a parser thread (parse-worker.ts). */
function startWorker(id: number, billingCodes: string[] | undefined): Worker {
  return startModuleWorker('parse-worker', import.meta.url, { workerData: { id, billingCodes } });
}

interface Slot {
  worker: Worker;
  inFlight: number;
  waiting: Array<(r: WorkerReply) => void>;
}

/** A fixed set of parser threads. */
export class ParsePool {
  private readonly slots: Slot[] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  /** Bytes of elements sent since the last full garbage collection (COLLECT_AFTER_BYTES). */
  private sentSinceCollect = 0;
  private readonly collectAfterBytes: number;
  /** How many finished sources were followed by a full garbage collection of every thread. */
  collections = 0;

  /**
   * @param jobs number of parser threads (at least 1)
   * @param billingCodes the catalog's billing-code filter, applied again after a full parse
   * @param options.collectAfterBytes bytes parsed between two full garbage collections (default COLLECT_AFTER_BYTES)
   */
  constructor(jobs: number, billingCodes: ReadonlySet<string> | undefined, options: { collectAfterBytes?: number } = {}) {
    this.collectAfterBytes = options.collectAfterBytes ?? COLLECT_AFTER_BYTES;
    const codes = billingCodes ? [...billingCodes] : undefined;
    // V8 reads its flags when it creates an isolate: the parser threads' heaps start at V8's own
    // initial size, not at the main thread's (runtime-flags.ts), which would let each hold ~100 MB
    // of garbage more while it parses
    setFlagsFromString('--initial-old-space-size=0');
    for (let i = 0; i < Math.max(1, jobs); i++) {
      const slot: Slot = { worker: startWorker(i, codes), inFlight: 0, waiting: [] };
      slot.worker.on('message', (r: WorkerReply) => {
        if (r.type === 'error') this.fail(new Error(`parser thread: ${r.message}`));
        if (r.type === 'ack') slot.inFlight--;
        slot.waiting.shift()?.(r);
        this.wake?.();
      });
      slot.worker.on('error', (e) => this.fail(e));
      this.slots.push(slot);
    }
  }

  get size(): number {
    return this.slots.length;
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const slot of this.slots) for (const w of slot.waiting.splice(0)) w({ type: 'error', message: e.message });
    this.wake?.();
  }

  /** Sends a batch to the least busy worker, waiting while every worker has MAX_IN_FLIGHT. */
  async send(m: BatchMessage): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.slots.length === 0) throw new Error('parser threads closed');
      const slot = this.slots.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      if (slot.inFlight < MAX_IN_FLIGHT) {
        slot.inFlight++;
        slot.waiting.push(() => {});
        // the elements fill the buffer from 0: the last one's end is the batch's bytes
        this.sentSinceCollect += m.elements[m.elements.length - 2] ?? 0;
        slot.worker.postMessage(m, [m.buffer]);
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }

  /**
   * Waits for every batch of `sourceId` and returns each worker's spooled files and counts; every
   * thread (these and the caller's) then runs a full garbage collection (collect-garbage.ts) once
   * `collectAfterBytes` have been parsed since the last.
   */
  async finish(sourceId: number): Promise<SourceDone[]> {
    const collect = this.sentSinceCollect >= this.collectAfterBytes;
    if (collect) {
      this.sentSinceCollect = 0;
      this.collections++;
    }
    const replies = await Promise.all(this.slots.map((slot) => new Promise<WorkerReply>((resolve) => {
      slot.waiting.push(resolve);
      slot.worker.postMessage({ type: 'finish', sourceId, collect } satisfies FinishMessage);
    })));
    if (this.failure) throw this.failure;
    // the source is read: DuckDB loads its rows next, so drop this thread's streaming garbage first
    if (collect) collectGarbage();
    return replies.flatMap((r) => (r.type === 'done' ? [r.done] : []));
  }

  /** Stops every thread (again: a no-op). */
  async close(): Promise<void> {
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }
}
