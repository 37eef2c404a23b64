/**
 * Checks the bytes of a zip entry, as they stream out of yauzl, against its central directory
 * record: the CRC-32 of the uncompressed data (APPNOTE.TXT 4.4.7) and the uncompressed size
 * (4.4.9). yauzl checks the size but never the CRC, so a corrupted byte in a stored (method 0)
 * entry, or in a deflated one whose deflate stream stays valid, would otherwise be read as good
 * data; gzip streams get the same check from zlib (open-container.ts gunzipStream).
 */
import zlib from 'node:zlib';
import { createCRC32 } from 'hash-wasm';
import { MrfReadError } from './types.js';

/** A running CRC-32 (the zip and gzip one, polynomial 0xEDB88320). */
export interface Crc32 {
  update(chunk: Uint8Array): void;
  /** The CRC-32 of the bytes given so far, as an unsigned 32-bit integer. */
  digest(): number;
}

/**
 * A running CRC-32: Node's zlib.crc32 (native, since Node 20.15) when `native`, else hash-wasm's
 * (WebAssembly), for the Node 20 releases before it.
 */
export async function createCrc32(native = typeof zlib.crc32 === 'function'): Promise<Crc32> {
  if (native) {
    let crc = 0;
    return {
      update: (chunk) => void (crc = zlib.crc32(chunk, crc)),
      digest: () => crc,
    };
  }
  const h = await createCRC32();
  h.init();
  return {
    update: (chunk) => void h.update(chunk),
    digest: () => {
      // a digest ends the hasher's run: its state is put back so that more bytes can follow
      const state = h.save();
      const crc = Number.parseInt(h.digest('hex'), 16);
      h.load(state);
      return crc;
    },
  };
}

/** What the central directory says of one zip entry. */
export interface ZipEntryRecord {
  /** The entry's name in the archive. */
  name: string;
  /** CRC-32 of its uncompressed bytes, unsigned. */
  crc32: number;
  /** Its uncompressed size in bytes. */
  uncompressedSize: number;
}

const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;

/**
 * Yields the chunks of `bytes` (the uncompressed bytes of zip entry `entry` of archive `file`)
 * unchanged, and once they end checks their count and CRC-32 against `entry`. A CRC covers the
 * whole entry, so a mismatch names no byte: the error is at offset 0, as every other failure of
 * an archive entry.
 * @throws MrfReadError (offset 0) `corrupt zip archive (entry <name>: <n> bytes extracted, <m> in
 *   the central directory)` or `corrupt zip archive (entry <name>: bad CRC-32 0x..., the central
 *   directory says 0x...)`; errors of `bytes` pass through unchanged.
 */
export async function* checkedZipEntry(file: string, entry: ZipEntryRecord, bytes: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const crc = await createCrc32();
  let size = 0;
  for await (const chunk of bytes) {
    crc.update(chunk);
    size += chunk.length;
    yield chunk;
  }
  if (size !== entry.uncompressedSize) {
    throw new MrfReadError(file, 0, `corrupt zip archive (entry ${entry.name}: ${size} bytes extracted, ${entry.uncompressedSize} in the central directory)`);
  }
  const actual = crc.digest();
  if (actual !== entry.crc32 >>> 0) {
    throw new MrfReadError(file, 0, `corrupt zip archive (entry ${entry.name}: bad CRC-32 ${hex(actual)}, the central directory says ${hex(entry.crc32 >>> 0)})`);
  }
}
