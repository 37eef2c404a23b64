/**
 * Turns the stored bytes of an MRF into its JSON bytes. The container is recognised by its magic
 * bytes, never by the file name (tic-format.md §6 quirk 2): gzip (1f 8b, multi-member allowed) is
 * decompressed, anything else is taken as plain JSON (a UTF-8 BOM is left for the scanner).
 */
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { MrfReadError } from './types.js';

/** Containers we recognise only to refuse them with a clear reason. */
const REFUSED: Array<{ magic: number[]; reason: string }> = [
  { magic: [0x50, 0x4b, 0x03, 0x04], reason: 'zip archives are not supported yet' },
  { magic: [0x50, 0x4b, 0x05, 0x06], reason: 'zip archives are not supported yet (empty zip)' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], reason: 'zstd compression is not supported' },
  { magic: [0x42, 0x5a, 0x68], reason: 'bzip2 compression is not supported' },
  { magic: [0xfd, 0x37, 0x7a, 0x58], reason: 'xz compression is not supported' },
];

/** Container kind from the first bytes; throws MrfReadError (offset 0) for a refused container. */
export function sniffContainer(file: string, head: Uint8Array): 'gzip' | 'json' {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  for (const { magic, reason } of REFUSED) {
    if (magic.every((b, k) => head[k] === b)) throw new MrfReadError(file, 0, reason);
  }
  return 'json';
}

function zlibReason(err: Error & { code?: string }): string {
  if (err.code === 'Z_BUF_ERROR') return `truncated gzip stream (${err.message})`;
  if (err.code?.startsWith('Z_')) return `corrupt gzip stream (${err.message})`;
  return `read error (${err.message})`;
}

/**
 * Yields the decompressed JSON bytes of `input` (chunks as Buffers, never reused).
 * @throws MrfReadError for a refused container (offset 0), or a truncated/corrupt gzip stream or an
 *   input error (offset = decompressed bytes yielded before the failure).
 */
export async function* openContainer(file: string, input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const it = input[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < 4) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    head.push(r.value);
    headBytes += r.value.length;
  }
  async function* all(): AsyncGenerator<Buffer> {
    let finished = ended;
    try {
      yield* head;
      while (!finished) {
        const r = await it.next();
        if (r.done) finished = true;
        else yield r.value;
      }
    } finally {
      if (!finished) await it.return?.();
    }
  }
  if (sniffContainer(file, Buffer.concat(head, headBytes)) === 'json') {
    yield* all();
    return;
  }
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  pipeline(Readable.from(all(), { objectMode: false }), gunzip, () => {
    // errors surface through the iteration of gunzip below
  });
  let yielded = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      yielded += chunk.length;
      yield chunk;
    }
  } catch (e) {
    if (e instanceof MrfReadError) throw e;
    throw new MrfReadError(file, yielded, zlibReason(e as Error));
  } finally {
    gunzip.destroy();
  }
}
