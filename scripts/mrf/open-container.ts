/**
 * Turns the stored bytes of an MRF into its JSON bytes. The container is recognised by its magic
 * bytes, never by the file name (tic-format.md §6 quirk 2): gzip (1f 8b, multi-member allowed) is
 * decompressed; zip (50 4b 03 04) is spooled to a temporary file (its directory sits at the end)
 * and its first `.json` entry is read with yauzl, itself sniffed again (a `.json.gz` inside a zip);
 * anything else is taken as plain JSON (a UTF-8 BOM is left for the scanner).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { MrfReadError } from './types.js';

/** Containers we recognise only to refuse them with a clear reason. */
const REFUSED: Array<{ magic: number[]; reason: string }> = [
  { magic: [0x50, 0x4b, 0x05, 0x06], reason: 'empty zip archive (no entry)' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], reason: 'zstd compression is not supported' },
  { magic: [0x42, 0x5a, 0x68], reason: 'bzip2 compression is not supported' },
  { magic: [0xfd, 0x37, 0x7a, 0x58], reason: 'xz compression is not supported' },
];

/** Options of openContainer. */
export interface OpenContainerOptions {
  /** Directory for the temporary copy of a zip archive (default: the system's temp dir). */
  tmpDir?: string;
  /** Told about what a zip holds besides the entry read (ignored entries). */
  onNote?: (message: string) => void;
}

/** Container kind from the first bytes; throws MrfReadError (offset 0) for a refused container. */
export function sniffContainer(file: string, head: Uint8Array): 'gzip' | 'zip' | 'json' {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
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

/** The entry of a zip that holds the in-network JSON: the first `.json` (or `.json.gz`) file, else the only file. */
function pickEntry(entries: yauzl.Entry[]): yauzl.Entry | undefined {
  const files = entries.filter((e) => !e.fileName.endsWith('/'));
  return files.find((e) => /\.json(\.gz)?$/i.test(e.fileName)) ?? (files.length === 1 ? files[0] : undefined);
}

/** Reads a zip archive from `bytes` (spooled to disk) and yields the stored bytes of its JSON entry. */
async function* unzip(file: string, bytes: AsyncIterable<Buffer>, o: OpenContainerOptions): AsyncGenerator<Buffer> {
  const dir = await mkdtemp(path.join(o.tmpDir ?? os.tmpdir(), 'compete-zip-'));
  const copy = path.join(dir, 'archive.zip');
  let zip: yauzl.ZipFile | undefined;
  try {
    await pipelineAsync(Readable.from(bytes, { objectMode: false }), createWriteStream(copy));
    try {
      zip = await yauzl.openPromise(copy, { lazyEntries: true, autoClose: false });
    } catch (e) {
      throw new MrfReadError(file, 0, `corrupt zip archive (${(e as Error).message})`);
    }
    const entries: yauzl.Entry[] = [];
    for await (const entry of zip.eachEntry()) entries.push(entry);
    const entry = pickEntry(entries);
    if (!entry) throw new MrfReadError(file, 0, `zip archive holds no .json entry (${entries.length} entries)`);
    const others = entries.filter((e) => e !== entry && !e.fileName.endsWith('/'));
    if (others.length) o.onNote?.(`zip entry ${entry.fileName} read; ${others.length} other entries ignored (${others.map((e) => e.fileName).slice(0, 5).join(', ')})`);
    if (entry.isEncrypted()) throw new MrfReadError(file, 0, `zip entry ${entry.fileName} is encrypted`);
    const stream = await zip.openReadStreamPromise(entry);
    yield* stream as AsyncIterable<Buffer>;
  } catch (e) {
    if (e instanceof MrfReadError) throw e;
    throw new MrfReadError(file, 0, `corrupt zip archive (${(e as Error).message})`);
  } finally {
    zip?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Yields the decompressed JSON bytes of `input` (chunks as Buffers, never reused).
 * @throws MrfReadError for a refused container or an unreadable zip (offset 0), or a
 *   truncated/corrupt gzip stream or an input error (offset = decompressed bytes yielded before
 *   the failure).
 */
export async function* openContainer(file: string, input: AsyncIterable<Buffer>, options: OpenContainerOptions = {}, depth = 0): AsyncGenerator<Buffer> {
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
  const kind = sniffContainer(file, Buffer.concat(head, headBytes));
  if (kind === 'json') {
    yield* all();
    return;
  }
  if (kind === 'zip') {
    if (depth > 0) throw new MrfReadError(file, 0, 'a zip archive inside a zip archive is not supported');
    yield* openContainer(file, unzip(file, all(), options), options, depth + 1);
    return;
  }
  const gunzip = createGunzip({ chunkSize: 2 << 20 });
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
