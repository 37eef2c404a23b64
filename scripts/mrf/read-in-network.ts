/**
 * Streaming reader of one in-network-rates MRF (docs/architecture.md; docs/converter.md, Quirks of real files): stored bytes
 * -> container (gzip or plain JSON, by magic bytes) -> byte-level root scanner that cuts each element
 * of `provider_references[]` and `in_network[]` -> `JSON.parse` of that element alone ->
 * normalised events for an `MrfSink`, in file order. Only one element is held at a time; the whole
 * file is never parsed. The header is emitted once, at the end.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { HEADER_KEYS, HeaderFields } from './header-fields.js';
import { InputMeter } from './meter-input.js';
import { elementPath, type ElementContext } from './normalize-context.js';
import { normalizeInNetworkItem, normalizeRate } from './normalize-item.js';
import { normalizeProviderReference } from './normalize-provider.js';
import { openContainer } from './open-container.js';
import { parseElement } from './parse-element.js';
import { peekBillingCode } from './peek-billing-code.js';
import { RootScanner, type ScanEvent } from './root-scanner.js';
import { scanChunks } from './scan-chunks.js';
import { MrfReadError, type MrfNegotiatedRate, type MrfReadOptions, type MrfReadResult, type MrfSink } from './types.js';

/** Awaits a sink call only when it returned a promise (most sinks are synchronous). */
async function settle(r: void | Promise<void>): Promise<void> {
  if (r !== undefined) await r;
}

/** Turns the state of one file read into sink calls. */
class EventHandler {
  inNetworkItems = 0;
  providerReferences = 0;
  skippedItems = 0;
  readonly header = new HeaderFields();
  /** Rates of the split item being read (this single-thread reader joins them back to their item). */
  private splitRates: MrfNegotiatedRate[] = [];

  constructor(
    private readonly sink: MrfSink,
    private readonly billingCodes: ReadonlySet<string> | undefined,
  ) {}

  async flush(ctx: ElementContext): Promise<void> {
    for (const p of ctx.problems) await settle(this.sink.problem(p));
    ctx.problems.length = 0;
  }

  async handle(ev: ScanEvent): Promise<void> {
    if (ev.kind === 'problem') {
      await settle(this.sink.problem({ code: ev.code, path: ev.path, offset: ev.offset, message: ev.message }));
      return;
    }
    const ctx: ElementContext = { offset: ev.offset, problems: [] };
    if (ev.kind === 'rate') {
      const path = elementPath('in_network', ev.index, ev.rateIndex);
      const parsed = parseElement(ev.bytes, 'in_network');
      if (!parsed.ok) {
        await settle(this.sink.problem({ code: 'invalid_json', path, offset: ev.offset, message: `element is not valid JSON (${parsed.reason}); dropped` }));
        return;
      }
      const rate = normalizeRate(ctx, parsed.value, path);
      await this.flush(ctx);
      if (rate) this.splitRates.push(rate);
      return;
    }
    if (ev.kind === 'value') {
      this.header.add(ctx, ev.key, ev.bytes);
      await this.flush(ctx);
      return;
    }
    const path = `$.${ev.array}[${ev.index}]`;
    if (ev.array === 'in_network' && this.billingCodes) {
      const code = peekBillingCode(ev.bytes);
      if (code !== undefined && !this.billingCodes.has(code)) {
        this.splitRates = [];
        this.skippedItems++;
        return;
      }
    }
    const parsed = parseElement(ev.bytes, ev.array);
    if (!parsed.ok) {
      await settle(this.sink.problem({ code: 'invalid_json', path, offset: ev.offset, message: `element is not valid JSON (${parsed.reason}); dropped` }));
      return;
    }
    if (ev.array === 'provider_references') {
      const ref = normalizeProviderReference(ctx, parsed.value, path);
      await this.flush(ctx);
      if (ref) {
        this.providerReferences++;
        await settle(this.sink.providerReference(ref, ev.offset));
      }
      return;
    }
    const item = normalizeInNetworkItem(ctx, parsed.value, path, ev.split === true);
    if (item && ev.split) item.negotiated_rates = this.splitRates;
    if (ev.split) this.splitRates = [];
    if (item && this.billingCodes && !this.billingCodes.has(item.billing_code)) {
      this.skippedItems++; // billing_code not cheaply readable (escaped, after a bundled_codes key)
      return;
    }
    await this.flush(ctx);
    if (item) {
      this.inNetworkItems++;
      await settle(this.sink.inNetworkItem(item, ev.offset));
    }
  }
}

/**
 * Reads one in-network-rates file from its stored bytes (gzip or plain JSON; chunks must not be
 * reused by the producer after they are yielded).
 * Calls the sink in file order: `providerReference` / `inNetworkItem` per element, `problem` for
 * every tolerated defect (before the element it concerns), then `header` once at the end.
 * Counts: `inNetworkItems` = items given to the sink, `skippedItems` = items left out by
 * `options.billingCodes`; items dropped for bad data count in neither (each has a problem).
 * @param name file name used in errors and problems' context
 * @param options.inputBytes total stored bytes, for `onProgress` (null when unknown)
 * @throws MrfReadError when the file cannot be read at all: empty, not JSON, truncated JSON,
 *   truncated/corrupt gzip, zip or another unsupported container, an input error.
 */
export async function readInNetworkStream(
  name: string,
  input: AsyncIterable<Uint8Array>,
  sink: MrfSink,
  options: MrfReadOptions & { inputBytes?: number } = {},
): Promise<MrfReadResult> {
  const meter = new InputMeter(options.inputBytes ?? null, { onProgress: options.onProgress });
  const scanner = new RootScanner(name, (key) => HEADER_KEYS.has(key), options.splitBytes);
  const handler = new EventHandler(sink, options.billingCodes);
  await scanChunks(name, openContainer(name, meter.pipe(input)), scanner, (ev) => handler.handle(ev));
  const ctx: ElementContext = { offset: 0, problems: [] };
  const header = handler.header.build(ctx);
  await handler.flush(ctx);
  await settle(sink.header(header));
  return {
    jsonBytes: scanner.bytes,
    inputBytes: meter.bytes,
    sha256: meter.done(),
    inNetworkItems: handler.inNetworkItems,
    providerReferences: handler.providerReferences,
    skippedItems: handler.skippedItems,
  };
}

/**
 * Reads one in-network-rates file from disk (see readInNetworkStream); sizes it for progress and
 * hashes the stored bytes with SHA-256 as it streams.
 * @throws MrfReadError as readInNetworkStream, and when the file cannot be opened (offset 0).
 */
export async function readInNetworkFile(path: string, sink: MrfSink, options: MrfReadOptions = {}): Promise<MrfReadResult> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw new MrfReadError(path, 0, `cannot open (${(e as Error).message})`);
  }
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  return readInNetworkStream(path, stream, sink, { ...options, inputBytes: size });
}
