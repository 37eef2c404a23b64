/**
 * The converter's reading path on one thread: readSource (read-source.ts: container, root scanner,
 * item splitter, batches) with the parser threads' work (parse-worker.ts) done here by
 * InProcessPool, through the same spoolBatch (spool-element.ts: the fast path of fast-rates.ts, or
 * JSON.parse and the normalisers) into the same spool CSV files. The fuzz harness
 * (scripts/fuzz/read.ts), the reader's tests and measure-read.ts read files this way: the code of a
 * conversion, without threads, so that a read is deterministic and its time is one thread's.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { MrfReadError } from '../../mrf/types';
import type { BatchMessage, SourceDone } from './parse-pool';
import { readSource, type ReadSourceOptions, type ReadSourceResult, type SourcePool } from './read-source';
import { closeSource, sourceState, spoolBatch, type SourceState } from './spool-element';

/** One element slice readSource sent: its kind, root-array index, rate index (a split item's rate, else 0) and stream offset. */
export interface SentElement {
  kind: BatchMessage['kind'];
  index: number;
  rateIndex: number;
  offset: number;
}

/**
 * A pool (read-source.ts SourcePool) that spools each batch on this thread as a parser thread
 * does, for one source whose spool files are `<prefix>-<table>.csv`. `finish` closes them once and
 * gives the same SourceDone on every later call.
 */
export class InProcessPool implements SourcePool {
  /** Indices of the in_network items whose rates were cut out (the scanner split them). */
  readonly split = new Set<number>();
  /** Every element sent, in order, when recording (the constructor's `record`); else stays empty. */
  readonly sent: SentElement[] = [];
  private readonly state: SourceState;
  private done: SourceDone | null = null;

  constructor(
    prefix: string,
    private readonly sourceId: number,
    private readonly keep: (code: string) => boolean,
    private readonly slow = false,
    private readonly record = false,
  ) {
    this.state = sourceState(prefix, sourceId);
  }

  send(m: BatchMessage): Promise<void> {
    const e = m.elements;
    for (let k = 0; k < e.length; k += 6) {
      if (e[k + 5] === 1) this.split.add(e[k]!);
      if (this.record) this.sent.push({ kind: m.kind, index: e[k]!, rateIndex: e[k + 1]!, offset: e[k + 2]! });
    }
    spoolBatch(this.state, m, this.keep, this.slow);
    return Promise.resolve();
  }

  finish(): Promise<SourceDone[]> {
    this.done ??= closeSource(this.sourceId, this.state);
    return Promise.resolve([this.done]);
  }
}

/** Options of readInProcess: readSource's, but the spool's place, and the parse's. */
export interface InProcessOptions extends Omit<ReadSourceOptions, 'sourceId' | 'dir'> {
  /** Directory of the spool files (and of a spooled archive, unless `tmpDir` says otherwise). */
  dir: string;
  /** Every element the slow way (JSON.parse and the normalisers), as COMPETE_SLOW_PARSE=1 does on the parser threads. */
  slow?: boolean;
  /** Keep every element sent, in order (InProcessRead.sent): the element offsets, which the spool does not hold. */
  record?: boolean;
}

/** What one in-process read gives. */
export interface InProcessRead {
  /** readSource's result; null when the file was refused. */
  result: ReadSourceResult | null;
  /** The refusal when the file cannot be read at all (readSource's MrfReadError); null otherwise. */
  fatal: MrfReadError | null;
  /** What the pool spooled: the spool files (the caller deletes them: removeSpool), counts and the problems kept. */
  done: SourceDone;
  /** Indices of the in_network items the scanner split, ascending. */
  split: number[];
  /** The elements sent, in order, when `record` was asked; else empty. */
  sent: SentElement[];
}

let reads = 0;

/**
 * Reads `input` (the stored bytes of `name`) as a conversion does, spooling on this thread under
 * `o.dir` as source 1.
 * @throws whatever readSource throws but MrfReadError (the refusal, in `fatal`); the spool files
 *   are deleted first.
 */
export async function readInProcess(name: string, input: AsyncIterable<Uint8Array>, o: InProcessOptions): Promise<InProcessRead> {
  const { dir, slow, record, ...options } = o;
  const codes = options.billingCodes;
  const pool = new InProcessPool(path.join(dir, `in-process-${process.pid}-${reads++}`), 1, (code) => !codes || codes.has(code), slow, record);
  let result: ReadSourceResult | null = null;
  let fatal: MrfReadError | null = null;
  try {
    result = await readSource(name, input, pool, { ...options, sourceId: 1, dir });
  } catch (e) {
    if (!(e instanceof MrfReadError)) {
      await removeSpool((await pool.finish())[0]!);
      throw e;
    }
    fatal = e;
  }
  const [done] = await pool.finish();
  return { result, fatal, done: done!, split: [...pool.split].sort((a, b) => a - b), sent: pool.sent };
}

/** Deletes the spool files of `done`. */
export async function removeSpool(done: SourceDone): Promise<void> {
  await Promise.all(Object.values(done.files).flat().map((f) => rm(f, { force: true })));
}
