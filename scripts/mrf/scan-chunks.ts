/**
 * The read loop of an in-network file (scripts/convert/ingest/read-source.ts, which hands the
 * elements to the parser threads): feed every decompressed chunk of a container to the root
 * scanner and hand its events, in file order, to `handle`, with strings over MAX_STRING_BYTES cut
 * and reported (long-strings.ts).
 */
import { LongStrings, MAX_STRING_BYTES } from './long-strings.js';
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
  const strings = new LongStrings(scanner);
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
      const chunk = r.value;
      // a string longer than a chunk spans a chunk end, where LongStrings sees it
      for (let at = 0; at < chunk.length; at += MAX_STRING_BYTES) {
        strings.push(at === 0 && chunk.length <= MAX_STRING_BYTES ? chunk : chunk.subarray(at, at + MAX_STRING_BYTES), events);
        for (const ev of events) {
          const p = handle(ev);
          if (p) await p; // no await (and no promise) for an event handled synchronously
        }
        events.length = 0;
      }
    }
  } finally {
    await chunks.return(undefined);
  }
  scanner.finish();
}
