/**
 * The end of one JSON value that may span decompressed chunks (root-scanner.ts): the depth, open
 * string and pending escape a chunk leaves, carried into the next. An object or array is scanned by
 * container-scan.ts (WebAssembly), a string by scan-bytes.ts skipString.
 */
import type { ContainerScan } from './container-scan.js';
import { skipString } from './scan-bytes.js';

export class OpenValue {
  /** Open brackets of the container being scanned (0 once it is closed). */
  private depth = 0;
  /** The bytes so far end inside a string of the value, and its next byte is escaped. */
  inStr = false;
  esc = false;

  /** @param containers the scanner of containers, shared with the item splitter (its depth statistics) */
  constructor(private readonly containers: ContainerScan) {}

  /** Starts a value: a container (its opening bracket consumed) or a string or scalar. */
  begin(container: boolean): void {
    this.inStr = false;
    this.esc = false;
    if (container) {
      this.depth = 1;
      this.containers.maxDepth = 1;
    }
  }

  /**
   * The end of the open object/array in `buf[i, limit)`: the index after its closing bracket, or -1
   * at `limit`. A string or escape left open by the previous chunk is finished here.
   */
  containerEnd(buf: Buffer, i: number, limit: number): number {
    const depth = this.depth;
    if (this.esc) {
      this.esc = false;
      i++;
    }
    if (this.inStr) {
      i = skipString(buf, i);
      if (i < 0) return this.openAtEnd(depth, true, i === -2);
      i++;
    }
    if (i >= limit) return this.openAtEnd(depth, false, false);
    const end = this.containers.scan(buf, i, depth, 0, limit);
    if (end >= 0) {
      this.depth = 0;
      this.inStr = false;
      return end;
    }
    return this.openAtEnd(this.containers.depth, this.containers.inStr, this.containers.esc);
  }

  /** The end of the open string value (after its quote), or -1 at chunk end. */
  stringEnd(buf: Buffer, i: number): number {
    if (this.esc) {
      this.esc = false;
      i++;
    }
    const q = skipString(buf, i);
    this.esc = q === -2;
    return q < 0 ? -1 : q + 1;
  }

  private openAtEnd(depth: number, inStr: boolean, esc: boolean): -1 {
    this.depth = depth;
    this.inStr = inStr;
    this.esc = esc;
    return -1;
  }
}
