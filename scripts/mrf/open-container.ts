/**
 * Turns the stored bytes of an MRF into its JSON bytes. The container is recognised by its magic
 * bytes, never by the file name (docs/converter.md, Quirks of real files): gzip (1f 8b, multi-member allowed) is
 * decompressed; zip (50 4b 03 04) is spooled to a temporary file (its directory sits at the end)
 * and read with yauzl: openContainer reads its first `.json` entry, itself sniffed again (a
 * `.json.gz` inside a zip), and the converter each of its JSON entries as a source of its own
 * (openZipArchive); anything else is taken as plain JSON (a UTF-8 BOM is left for the scanner).
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

/** The entries of a zip archive that hold in-network JSON: every `.json` (or `.json.gz`) file, in the archive's order, else its only file. */
function jsonEntries(files: yauzl.Entry[]): yauzl.Entry[] {
  const json = files.filter((e) => /\.json(\.gz)?$/i.test(e.fileName));
  return json.length > 0 || files.length !== 1 ? json : files;
}

/**
 * A zip archive spooled to disk (its directory sits at the end, so it cannot be streamed), open
 * with yauzl. `json` are the entries that hold in-network JSON (a zip may bundle several files:
 * the converter reads each as its own source), `ignored` the names of the other files.
 */
export interface ZipArchive {
  /** The JSON entries, in the archive's order, with their bytes as extracted; never empty. */
  readonly json: ReadonlyArray<{ name: string; size: number }>;
  /** Names of the files that are not JSON entries. */
  readonly ignored: string[];
  /**
   * The stored bytes of JSON entry `name` as extracted (`unzip -p`): JSON, or gzip for a
   * `.json.gz` entry, which openContainer then opens.
   * @throws MrfReadError (offset 0) for an encrypted or unreadable entry.
   */
  open(name: string): AsyncGenerator<Buffer>;
  /** Closes the archive and deletes its copy. */
  close(): Promise<void>;
}

/**
 * Spools the zip archive `bytes` (the stored bytes of `file`) into a temporary directory under
 * `tmpDir` and opens it. The caller must `close()` it.
 * @throws MrfReadError (offset 0) for a corrupt archive or one without a JSON entry; the copy is
 *   then already deleted.
 */
export async function openZipArchive(file: string, bytes: AsyncIterable<Buffer>, tmpDir?: string): Promise<ZipArchive> {
  const dir = await mkdtemp(path.join(tmpDir ?? os.tmpdir(), 'compete-zip-'));
  const copy = path.join(dir, 'archive.zip');
  let zip: yauzl.ZipFile | undefined;
  const close = async (): Promise<void> => {
    zip?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await pipelineAsync(Readable.from(bytes, { objectMode: false }), createWriteStream(copy));
    try {
      zip = await yauzl.openPromise(copy, { lazyEntries: true, autoClose: false });
    } catch (e) {
      throw new MrfReadError(file, 0, `corrupt zip archive (${(e as Error).message})`);
    }
    const files: yauzl.Entry[] = [];
    for await (const entry of zip.eachEntry()) if (!entry.fileName.endsWith('/')) files.push(entry);
    const json = jsonEntries(files);
    if (json.length === 0) throw new MrfReadError(file, 0, `zip archive holds no .json entry (${files.length} entries)`);
    const byName = new Map(json.map((e) => [e.fileName, e]));
    const archive = zip;
    return {
      json: json.map((e) => ({ name: e.fileName, size: e.uncompressedSize })),
      ignored: files.filter((e) => !byName.has(e.fileName)).map((e) => e.fileName),
      async *open(name) {
        const entry = byName.get(name);
        if (!entry) throw new MrfReadError(file, 0, `zip archive has no JSON entry ${name}`);
        if (entry.isEncrypted()) throw new MrfReadError(file, 0, `zip entry ${name} is encrypted`);
        try {
          yield* (await archive.openReadStreamPromise(entry)) as AsyncIterable<Buffer>;
        } catch (e) {
          if (e instanceof MrfReadError) throw e;
          throw new MrfReadError(file, 0, `corrupt zip archive (${(e as Error).message})`);
        }
      },
      close,
    };
  } catch (e) {
    await close();
    if (e instanceof MrfReadError) throw e;
    throw new MrfReadError(file, 0, `corrupt zip archive (${(e as Error).message})`);
  }
}

/** Reads a zip archive from `bytes` (spooled to disk) and yields the stored bytes of its first JSON entry, noting the others. */
async function* unzip(file: string, bytes: AsyncIterable<Buffer>, o: OpenContainerOptions): AsyncGenerator<Buffer> {
  const zip = await openZipArchive(file, bytes, o.tmpDir);
  try {
    const [entry, ...more] = zip.json.map((e) => e.name);
    const others = [...more, ...zip.ignored];
    if (others.length) o.onNote?.(`zip entry ${entry} read; ${others.length} other entries ignored (${others.slice(0, 5).join(', ')})`);
    yield* zip.open(entry!);
  } finally {
    await zip.close();
  }
}

/**
 * The container of `input` from its first bytes (sniffContainer), and `input` whole again.
 * @throws MrfReadError (offset 0) for a refused container.
 */
export async function peekContainer<T extends Uint8Array>(file: string, input: AsyncIterable<T>): Promise<{ kind: 'gzip' | 'zip' | 'json'; bytes: AsyncGenerator<T> }> {
  const it = input[Symbol.asyncIterator]();
  const head: T[] = [];
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
  async function* all(): AsyncGenerator<T> {
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
  return { kind: sniffContainer(file, Buffer.concat(head, headBytes)), bytes: all() };
}

/**
 * Yields the decompressed JSON bytes of `input` (chunks as Buffers, never reused).
 * @throws MrfReadError for a refused container or an unreadable zip (offset 0), or a
 *   truncated/corrupt gzip stream or an input error (offset = decompressed bytes yielded before
 *   the failure).
 */
export async function* openContainer(file: string, input: AsyncIterable<Buffer>, options: OpenContainerOptions = {}, depth = 0): AsyncGenerator<Buffer> {
  const { kind, bytes: all } = await peekContainer(file, input);
  if (kind === 'json') {
    yield* all;
    return;
  }
  if (kind === 'zip') {
    if (depth > 0) throw new MrfReadError(file, 0, 'a zip archive inside a zip archive is not supported');
    yield* openContainer(file, unzip(file, all, options), options, depth + 1);
    return;
  }
  const gunzip = createGunzip({ chunkSize: 2 << 20 });
  pipeline(Readable.from(all, { objectMode: false }), gunzip, () => {
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
