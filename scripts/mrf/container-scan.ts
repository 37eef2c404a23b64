/**
 * The hot loop of the root scanner (root-scanner.ts) and of the item splitter (item-splitter.ts) in
 * WebAssembly: finds the bracket that closes a JSON container, skipping strings and their escapes,
 * across chunk boundaries. Every byte of the
 * items a billing-code filter skips goes through it on the main thread: about three times the
 * speed of the same loop in JavaScript (1 GB benchmark file: 0.47 vs 1.3-1.5 s), the chunk's copy
 * into the module's memory included.
 * Source: container-scan.wat, assembled into container-scan-wasm.ts by build-container-scan.ts.
 */
import { CONTAINER_SCAN_WASM } from './container-scan-wasm.js';
import { isWs } from './scan-bytes.js';

/** Offset of the chunk in the module's memory (the byte-class table comes first). */
const CHUNK_AT = 256;
const PAGE = 65536;

interface ScanExports {
  memory: WebAssembly.Memory;
  depth: WebAssembly.Global;
  inStr: WebAssembly.Global;
  esc: WebAssembly.Global;
  maxDepth: WebAssembly.Global;
  last: WebAssembly.Global;
  pend: WebAssembly.Global;
  scan(i: number, n: number, depth: number, stop: number): number;
}

let compiled: WebAssembly.Module | null = null;

/**
 * One scanner's instance of the module (its memory holds one chunk at a time; the root scanner
 * shares its instance with the item splitter it hands a chunk to, so the chunk is copied once).
 */
export class ContainerScan {
  private readonly x: ScanExports;
  private loaded: Buffer | null = null;

  constructor() {
    compiled ??= new WebAssembly.Module(Buffer.from(CONTAINER_SCAN_WASM, 'base64'));
    this.x = new WebAssembly.Instance(compiled).exports as unknown as ScanExports;
  }

  /**
   * Notes the last byte other than whitespace of `buf`, the stream's bytes before the chunk to be
   * scanned next: a `{` is judged by the byte it follows (container-scan.wat `$brace`), and at a
   * chunk's start that byte is in the previous chunk. Call after each chunk, in stream order;
   * a chunk of whitespace only changes nothing.
   */
  tail(buf: Uint8Array): void {
    for (let k = buf.length - 1; k >= 0; k--) {
      if (!isWs(buf[k]!)) {
        this.x.last.value = buf[k]!;
        return;
      }
    }
  }

  /**
   * Drops a `{` left waiting for its next byte by the last scan (the scan ended right after it):
   * call before scanning bytes that do not follow the last ones scanned (a replay from an
   * element's start).
   */
  restart(): void {
    this.x.pend.value = 0;
  }

  /** Forgets the chunk copied last: call when a new chunk comes (the next scan copies it). */
  newChunk(): void {
    this.loaded = null;
  }

  /**
   * Scans `buf` from `i` (outside a string) inside containers open `depth` levels deep: returns the
   * index after the bracket that brings the depth down to `stop` (0: the one that closes the
   * outermost), or -1 at the chunk end, the state then in `depth`, `inStr` and `esc`. A `{` that
   * cannot open an object where it stands (it follows a value and no key's quote or `}` follows
   * it: a stray byte) does not count in the depth. Copies `buf`
   * into the module's memory on its first scan since newChunk, or when it is another buffer than
   * the last one scanned (growing the memory when the chunk is larger than any before). `end`
   * stops the scan before the chunk's end (as if the chunk ended there).
   */
  scan(buf: Buffer, i: number, depth: number, stop = 0, end = buf.length): number {
    if (this.loaded !== buf) {
      const need = CHUNK_AT + buf.length;
      const have = this.x.memory.buffer.byteLength;
      if (need > have) this.x.memory.grow(Math.ceil((need - have) / PAGE));
      new Uint8Array(this.x.memory.buffer, CHUNK_AT, buf.length).set(buf);
      this.loaded = buf;
    }
    return this.x.scan(i, end, depth, stop);
  }

  /** Depth at the chunk end of the last scan that returned -1. */
  get depth(): number {
    return this.x.depth.value as number;
  }

  /** Whether that chunk ended inside a string. */
  get inStr(): boolean {
    return this.x.inStr.value === 1;
  }

  /**
   * The deepest nesting scans reached since the last assignment (the depth passed to `scan` counts
   * as reached only once a bracket opens past it); assign 0 to start counting anew.
   */
  get maxDepth(): number {
    return this.x.maxDepth.value as number;
  }

  set maxDepth(d: number) {
    this.x.maxDepth.value = d;
  }

  /** Whether it ended right after a backslash in a string (the next chunk's first byte is escaped). */
  get esc(): boolean {
    return this.x.esc.value === 1;
  }
}
