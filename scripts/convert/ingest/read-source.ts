/**
 * Reads one in-network file for the converter: stored bytes -> container (open-container.ts) ->
 * root scanner (large items split by negotiated_rates) on this thread -> batches of element bytes
 * to the parser threads (parse-pool.ts), which spool the rows. Items whose billing code the filter
 * drops are skipped here, before any parse, when their code can be read cheaply
 * (peek-billing-code.ts). The header is read on this thread.
 */
import { HEADER_KEYS, HeaderFields } from '../../mrf/header-fields';
import { InputMeter } from '../../mrf/meter-input';
import type { ElementContext } from '../../mrf/normalize-context';
import { openContainer } from '../../mrf/open-container';
import { peekBillingCodeAt, type PeekedCode } from '../../mrf/peek-billing-code';
import { RootScanner, type ScanEvent } from '../../mrf/root-scanner';
import { scanChunks } from '../../mrf/scan-chunks';
import type { MrfHeader, MrfProblem } from '../../mrf/types';
import type { StoredArchive } from './open-sources';
import type { BatchMessage, ParsePool, SourceDone } from './parse-pool';

/**
 * What readSource needs of its pool: the parser threads (ParsePool), or InProcessPool
 * (read-in-process.ts), which does their work on this thread.
 */
export type SourcePool = Pick<ParsePool, 'send' | 'finish'>;

/** Bytes of element text per batch sent to a parser thread. */
const BATCH_BYTES = 2 << 20;

/** Options of one read. */
export interface ReadSourceOptions {
  sourceId: number;
  /** Directory of the spool CSV files. */
  dir: string;
  billingCodes?: ReadonlySet<string>;
  inputBytes?: number;
  onProgress?: (bytesRead: number, totalBytes: number | null) => void;
  splitBytes?: number;
  /** Where a zip or 7z archive is spooled (default: `dir`). */
  tmpDir?: string;
  /**
   * The input is an entry of the archive of kind `kind` stored as `bytes` with SHA-256 `sha256`
   * (open-sources.ts): the result carries these, the entry's bytes are not hashed again, and an
   * archive inside is refused.
   */
  archive?: StoredArchive;
}

/** What one read gives. */
export interface ReadSourceResult {
  header: MrfHeader;
  jsonBytes: number;
  /** Bytes of the input as stored (the archive's, for an archive entry). */
  inputBytes: number;
  /** SHA-256 of those bytes, lower-case hex. */
  sha256: string;
  skippedItems: number;
  /**
   * The `in_network` items whose ids are below this were superseded by a second `in_network` key
   * (JSON keeps a key's last value; root-scanner.ts): the caller drops their spooled rows.
   */
  supersededItems: number;
  /** Likewise the `provider_references` elements below this: the caller drops their groups (raw_groups `ref_index`). */
  supersededRefs: number;
  /**
   * Of each split item whose `negotiated_rates` is written twice, [item id, n]: its rates below n
   * were superseded; the caller drops them and numbers the last array's from 0, as a parse does.
   */
  supersededRates: Array<[number, number]>;
  /** Problems found on this thread (structure, header). */
  problems: MrfProblem[];
  /** What each parser thread spooled. */
  spooled: SourceDone[];
}

/** Bytes allocated for a batch: BATCH_BYTES plus room for its last element (or that element's size). */
const BATCH_CAPACITY = 2 * BATCH_BYTES;

/**
 * Collects elements of one kind into a batch. Each element's bytes are copied into the batch's
 * buffer as it comes, so that no view of a decompressed chunk outlives its scan event; the buffer
 * is transferred to the parser thread.
 */
class Batcher {
  private buf: Buffer | null = null;
  private bytes = 0;
  private elements: number[] = [];
  constructor(
    private readonly pool: SourcePool,
    private readonly base: Omit<BatchMessage, 'buffer' | 'elements' | 'kind'>,
    private readonly kind: BatchMessage['kind'],
  ) {}

  /**
   * Adds one element; returns a promise only when it sends a batch (the pool's backpressure), so
   * that the scan loop awaits once per batch, not once per element.
   */
  add(index: number, rateIndex: number, offset: number, bytes: Uint8Array, split: boolean): Promise<void> | undefined {
    if (this.buf && this.bytes + bytes.length > this.buf.length) return this.flush().then(() => this.add(index, rateIndex, offset, bytes, split));
    this.buf ??= Buffer.allocUnsafeSlow(Math.max(BATCH_CAPACITY, bytes.length));
    this.buf.set(bytes, this.bytes);
    this.elements.push(index, rateIndex, offset, this.bytes, this.bytes + bytes.length, split ? 1 : 0);
    this.bytes += bytes.length;
    return this.bytes >= BATCH_BYTES ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.elements.length === 0 || !this.buf) return;
    const m: BatchMessage = { ...this.base, kind: this.kind, buffer: this.buf.buffer as ArrayBuffer, elements: this.elements };
    this.buf = null;
    this.bytes = 0;
    this.elements = [];
    await this.pool.send(m);
  }
}

/**
 * Reads `input` (the stored bytes of `name`) into the spool through `pool`, in file order: a batch
 * is sent once the one before it was taken (`pool.send` resolved), then `pool.finish`.
 * @throws MrfReadError naming `name` and the decompressed byte offset when the file cannot be read
 *   at all: empty, not JSON, truncated JSON, a truncated or corrupt gzip, a refused container, an
 *   input error; errors of `pool` pass through unchanged.
 */
export async function readSource(name: string, input: AsyncIterable<Uint8Array>, pool: SourcePool, o: ReadSourceOptions): Promise<ReadSourceResult> {
  const meter = new InputMeter(o.inputBytes ?? null, { onProgress: o.onProgress, hashed: !o.archive });
  // The billing-code filter also reaches the scanner, so the rates of a split (large) item whose
  // code is filtered out are dropped before they are parsed.
  const keep = o.billingCodes;
  const scanner = new RootScanner(name, (key) => HEADER_KEYS.has(key), o.splitBytes, keep && ((code: string) => keep.has(code)));
  const header = new HeaderFields();
  const problems: MrfProblem[] = [];
  const base = { type: 'batch' as const, sourceId: o.sourceId, dir: o.dir };
  const batchers = {
    provider_references: new Batcher(pool, base, 'provider_references'),
    in_network: new Batcher(pool, base, 'in_network'),
    rate: new Batcher(pool, base, 'rate'),
  };
  let skippedItems = 0;
  const supersededRates: Array<[number, number]> = [];
  const handle = (ev: ScanEvent): Promise<void> | undefined => {
    if (ev.kind === 'problem') problems.push({ code: ev.code, path: ev.path, offset: ev.offset, message: ev.message });
    else if (ev.kind === 'value') {
      const ctx: ElementContext = { offset: ev.offset, problems };
      header.add(ctx, ev.key, ev.bytes);
    } else if (ev.kind === 'rate') {
      // a split item's code is known only at its end: rates of an item filtered out then are
      // spooled and dropped by the join with raw_items (build-tables.ts)
      return batchers.rate.add(ev.index, ev.rateIndex, ev.offset, ev.bytes, false);
    } else {
      if (ev.supersededRates !== undefined) {
        // the head's parse (spool-element.ts) leaves this key to the scanner: only it knows the offset
        problems.push({ code: 'duplicate_key', path: `$.in_network[${ev.index}].negotiated_rates`, offset: ev.supersededAt!,
          message: 'key "negotiated_rates" written twice in one object; the last value is kept' });
        if (ev.supersededRates! > 0) supersededRates.push([ev.index, ev.supersededRates!]);
      }
      if (ev.array === 'in_network' && o.billingCodes) {
        const peeked = peekBillingCodeAt(ev.bytes);
        if (peeked !== undefined && !o.billingCodes.has(peeked.code)) {
          skippedItems++;
          return;
        }
        if (ev.droppedFor !== undefined) {
          problems.push(ratesLost(ev, peeked));
          return;
        }
      }
      return batchers[ev.array].add(ev.index, 0, ev.offset, ev.bytes, ev.split === true);
    }
  };
  const onNote = (message: string, code: string): void => void problems.push({ code, path: '$', offset: 0, message });
  await scanChunks(name, openContainer(name, meter.pipe(input), { tmpDir: o.tmpDir ?? o.dir, onNote }, o.archive?.kind), scanner, handle);
  for (const b of Object.values(batchers)) await b.flush();
  const spooled = await pool.finish(o.sourceId);
  const ctx: ElementContext = { offset: 0, problems };
  const h = header.build(ctx);
  const sha256 = meter.done();
  const stored = o.archive ?? { bytes: meter.bytes, sha256 };
  return { header: h, jsonBytes: scanner.bytes, inputBytes: stored.bytes, sha256: stored.sha256, skippedItems,
    supersededItems: scanner.superseded.in_network, supersededRefs: scanner.superseded.provider_references, supersededRates, problems, spooled };
}

/**
 * The problem of a split item whose rates the filter left out for the billing code written before
 * them, while its last `billing_code` (the one the parser keeps, `peeked`, written after the
 * rates, or unreadable cheaply) is not rejected: its rates are gone, so the item is dropped,
 * reported at that last key (its stream offset: the head's bytes skip the rates' content).
 */
function ratesLost(ev: Extract<ScanEvent, { kind: 'element' }>, peeked: PeekedCode | undefined): MrfProblem {
  let offset = ev.offset;
  if (peeked) {
    const before = ev.rates ? ev.rates[0] - ev.offset : Infinity;
    offset = peeked.at < before ? ev.offset + peeked.at : ev.rates![1] + peeked.at - before;
  }
  const last = peeked ? `"${peeked.code}"` : 'another value';
  return { code: 'duplicate_key', path: `$.in_network[${ev.index}].billing_code`, offset,
    message: `billing_code written twice: its rates were left out for the first value "${ev.droppedFor}", which the billing-code filter drops, ` +
      `but the last one, ${last}, is the item's; item dropped` };
}
