/**
 * Passes the stored bytes of an MRF through unchanged while counting them, hashing them with
 * SHA-256 (manifest `sources[].sha256`, docs/dataset.md) and reporting progress.
 */
import { createHash, type Hash } from 'node:crypto';

/** Running totals of a metered input. */
export class InputMeter {
  bytes = 0;
  private readonly hash: Hash | null;
  private lastProgress = 0;

  private readonly onProgress: ((bytesRead: number, totalBytes: number | null) => void) | undefined;
  private readonly intervalMs: number;

  /**
   * @param total the input's bytes, when known (progress shows a share and an ETA)
   * @param o.onProgress called with (bytes read, total bytes or null), at most every `o.intervalMs`
   *   (default 100 ms: ~10 calls a second), and once more by `done()`.
   * @param o.hashed whether to hash the bytes (default true; false: bytes another meter hashed, a zip entry's)
   */
  constructor(
    private readonly total: number | null,
    o: { onProgress?: (bytesRead: number, totalBytes: number | null) => void; intervalMs?: number; hashed?: boolean } = {},
  ) {
    this.onProgress = o.onProgress;
    this.intervalMs = o.intervalMs ?? 100;
    this.hash = o.hashed === false ? null : createHash('sha256');
  }

  /** Yields the chunks of `input` as Buffers (no copy), metering each. */
  async *pipe(input: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
    for await (const u8 of input) {
      if (u8.length === 0) continue;
      const chunk = Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
      this.bytes += chunk.length;
      this.hash?.update(chunk);
      if (this.onProgress) {
        const now = performance.now();
        if (now - this.lastProgress >= this.intervalMs) {
          this.lastProgress = now;
          this.onProgress(this.bytes, this.total);
        }
      }
      yield chunk;
    }
  }

  /** Final progress call; returns the SHA-256 of all bytes seen, lower-case hex ('' when not hashed). */
  done(): string {
    this.onProgress?.(this.bytes, this.total);
    return this.hash?.digest('hex') ?? '';
  }
}
