/**
 * The read loop shared by both in-network readers (scripts/mrf/read-in-network.ts, one thread,
 * and scripts/convert/read-source.ts, parser threads): feed every decompressed chunk of a
 * container to the root scanner and hand its events, in file order, to `handle`.
 */
import { RootScanner, type ScanEvent } from './root-scanner.js';
import { MrfReadError } from './types.js';

/**
 * Scans `chunks` (from openContainer) to the end, then checks the JSON is complete.
 * @throws MrfReadError naming `name` and the decompressed byte offset when a chunk cannot be read
 *   or the JSON is broken or truncated; errors thrown by `handle` pass through unchanged.
 */
export async function scanChunks(
  name: string,
  chunks: AsyncGenerator<Buffer>,
  scanner: RootScanner,
  handle: (ev: ScanEvent) => Promise<void> | void,
): Promise<void> {
  const events: ScanEvent[] = [];
  try {
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await chunks.next();
      } catch (e) {
        if (e instanceof MrfReadError) throw e;
        throw new MrfReadError(name, scanner.bytes, `read error (${(e as Error).message})`);
      }
      if (r.done) break;
      scanner.push(r.value, events);
      for (const ev of events) {
        const p = handle(ev);
        if (p) await p; // no await (and no promise) for an event handled synchronously
      }
      events.length = 0;
    }
  } finally {
    await chunks.return(undefined);
  }
  scanner.finish();
}
