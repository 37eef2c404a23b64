/**
 * Turns the stored bytes of an MRF into its JSON bytes. The container is recognised by its magic
 * bytes, never by the file name (docs/converter.md, Quirks of real files): gzip (1f 8b, multi-member allowed) is
 * decompressed; zip (50 4b 03 04) and 7z (37 7a bc af 27 1c) archives are spooled to a temporary
 * file (their directory sits at the end) and read, a zip with yauzl, a 7z with the 7-Zip binary
 * (seven-zip.ts): openContainer reads an archive's first `.json` entry, itself sniffed again (a
 * `.json.gz` inside a zip or a 7z), and the converter each of its JSON entries as a source of its
 * own (openArchive); anything else is taken as plain JSON (a UTF-8 BOM is left for the scanner).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { openSevenZipFile } from './seven-zip.js';
import { MrfReadError } from './types.js';
import { checkedZipEntry } from './zip-entry-check.js';

/** What sniffContainer recognises. */
export type ContainerKind = 'gzip' | 'zip' | '7z' | 'json';

/** The containers that bundle files (read by openArchive). */
export type ArchiveKind = 'zip' | '7z';

/** The code of the report.json note that lists the files of an archive not read (docs/converter.md). */
export type EntriesIgnoredCode = `${ArchiveKind}_entries_ignored`;

/** `zip_entries_ignored` or `7z_entries_ignored`. */
export const entriesIgnoredCode = (kind: ArchiveKind): EntriesIgnoredCode => `${kind}_entries_ignored`;

/** Signature of a 7z archive (7-Zip's 7zFormat.txt: `'7' 'z' BC AF 27 1C`). */
const SEVEN_ZIP_MAGIC = [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c];

/** Bytes sniffContainer needs to tell every container apart (the 7z signature's). */
const HEAD_BYTES = SEVEN_ZIP_MAGIC.length;

/** Containers we recognise only to refuse them with a clear reason. */
const REFUSED: Array<{ magic: number[]; reason: string }> = [
  { magic: [0x50, 0x4b, 0x05, 0x06], reason: 'empty zip archive (no entry)' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], reason: 'zstd compression is not supported' },
  { magic: [0x42, 0x5a, 0x68], reason: 'bzip2 compression is not supported' },
  { magic: [0xfd, 0x37, 0x7a, 0x58], reason: 'xz compression is not supported' },
];

/** Options of openContainer. */
export interface OpenContainerOptions {
  /** Directory for the temporary copy of a zip or 7z archive (default: the system's temp dir). */
  tmpDir?: string;
  /** Told about what an archive holds besides the entry read (ignored entries), with the note's report.json code. */
  onNote?: (message: string, code: EntriesIgnoredCode) => void;
}

/**
 * Container kind from the first bytes (HEAD_BYTES of them suffice); throws MrfReadError (offset 0)
 * for a refused container.
 */
export function sniffContainer(file: string, head: Uint8Array): ContainerKind {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  if (SEVEN_ZIP_MAGIC.every((b, k) => head[k] === b)) return '7z';
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
 * The entries of an archive that hold in-network JSON: every `.json` (or `.json.gz`) file, in the
 * archive's order, else its only file (whatever its name).
 */
function jsonEntries<E>(files: E[], name: (e: E) => string): E[] {
  const json = files.filter((e) => /\.json(\.gz)?$/i.test(name(e)));
  return json.length > 0 || files.length !== 1 ? json : files;
}

/**
 * A zip or 7z archive spooled to disk (its directory sits at the end, so it cannot be streamed).
 * `json` are the entries that hold in-network JSON (an archive may bundle several files: the
 * converter reads each as its own source), `ignored` the names of the other files.
 */
export interface Archive {
  readonly kind: ArchiveKind;
  /** The JSON entries, in the archive's order, with their bytes as extracted; never empty. */
  readonly json: ReadonlyArray<{ name: string; size: number }>;
  /** Names of the files that are not JSON entries (folders are not listed). */
  readonly ignored: string[];
  /**
   * The stored bytes of JSON entry `name` as extracted (`unzip -p`, `7za e -so`): JSON, or gzip
   * for a `.json.gz` entry, which openContainer then opens.
   * A zip entry's bytes are checked against the CRC-32 and size of its central directory record
   * (zip-entry-check.ts), a 7z entry's by 7za, once the last byte is out.
   * @throws MrfReadError (offset 0) for an encrypted, unreadable or corrupt entry (`corrupt zip
   *   archive (entry <name>: bad CRC-32 ...)`, `corrupt 7z archive (entry <name>: CRC Failed)`).
   */
  open(name: string): AsyncGenerator<Buffer>;
  /** Closes the archive (a 7z's extractions still running are killed) and deletes its copy. */
  close(): Promise<void>;
}

/** Writes `bytes` to the file `copy` (an archive's temporary copy). */
async function spool(bytes: AsyncIterable<Buffer>, copy: string): Promise<void> {
  await pipelineAsync(Readable.from(bytes, { objectMode: false }), createWriteStream(copy));
}

/**
 * Spools the archive `bytes` (the stored bytes of `file`, of kind `kind` as sniffed) into a
 * temporary directory under `tmpDir` and opens it (openZipArchive, open7zArchive). The caller must
 * `close()` it.
 * @throws MrfReadError (offset 0) for a corrupt archive or one without a JSON entry; the copy is
 *   then already deleted.
 */
export function openArchive(kind: ArchiveKind, file: string, bytes: AsyncIterable<Buffer>, tmpDir?: string): Promise<Archive> {
  switch (kind) {
    case 'zip':
      return openZipArchive(file, bytes, tmpDir);
    case '7z':
      return open7zArchive(file, bytes, tmpDir);
  }
}

/**
 * Spools the zip archive `bytes` (the stored bytes of `file`) into a temporary directory under
 * `tmpDir` and opens it with yauzl. The caller must `close()` it.
 * @throws MrfReadError (offset 0) for a corrupt archive or one without a JSON entry; the copy is
 *   then already deleted.
 */
export async function openZipArchive(file: string, bytes: AsyncIterable<Buffer>, tmpDir?: string): Promise<Archive> {
  const dir = await mkdtemp(path.join(tmpDir ?? os.tmpdir(), 'compete-zip-'));
  const copy = path.join(dir, 'archive.zip');
  let zip: yauzl.ZipFile | undefined;
  const close = async (): Promise<void> => {
    zip?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await spool(bytes, copy);
    try {
      zip = await yauzl.openPromise(copy, { lazyEntries: true, autoClose: false });
    } catch (e) {
      throw new MrfReadError(file, 0, `corrupt zip archive (${(e as Error).message})`);
    }
    const files: yauzl.Entry[] = [];
    for await (const entry of zip.eachEntry()) if (!entry.fileName.endsWith('/')) files.push(entry);
    const json = jsonEntries(files, (e) => e.fileName);
    if (json.length === 0) throw new MrfReadError(file, 0, `zip archive holds no .json entry (${files.length} entries)`);
    const byName = new Map(json.map((e) => [e.fileName, e]));
    const archive = zip;
    return {
      kind: 'zip',
      json: json.map((e) => ({ name: e.fileName, size: e.uncompressedSize })),
      ignored: files.filter((e) => !byName.has(e.fileName)).map((e) => e.fileName),
      async *open(name) {
        const entry = byName.get(name);
        if (!entry) throw new MrfReadError(file, 0, `zip archive has no JSON entry ${name}`);
        if (entry.isEncrypted()) throw new MrfReadError(file, 0, `zip entry ${name} is encrypted`);
        try {
          const stream = (await archive.openReadStreamPromise(entry)) as AsyncIterable<Buffer>;
          yield* checkedZipEntry(file, { name, crc32: entry.crc32, uncompressedSize: entry.uncompressedSize }, stream);
        } catch (e) {
          if (e instanceof MrfReadError) throw e;
          throw new MrfReadError(file, 0, `corrupt zip archive (entry ${name}: ${(e as Error).message})`);
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

/**
 * Spools the 7z archive `bytes` (the stored bytes of `file`) into a temporary directory under
 * `tmpDir`, lists it with 7za (seven-zip.ts) and returns it; each `open()` runs one `7za e -so`
 * whose stdout is streamed. The caller must `close()` it.
 * @throws MrfReadError (offset 0) for a truncated or corrupt archive (`corrupt 7z archive (...)`),
 *   one without a JSON entry, or when 7-Zip cannot run; the copy is then already deleted.
 */
export async function open7zArchive(file: string, bytes: AsyncIterable<Buffer>, tmpDir?: string): Promise<Archive> {
  const dir = await mkdtemp(path.join(tmpDir ?? os.tmpdir(), 'compete-7z-'));
  const copy = path.join(dir, 'archive.7z');
  const seven = openSevenZipFile(file, copy);
  const close = async (): Promise<void> => {
    await seven.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await spool(bytes, copy);
    const files = (await seven.list()).filter((e) => !e.folder);
    const json = jsonEntries(files, (e) => e.name);
    if (json.length === 0) throw new MrfReadError(file, 0, `7z archive holds no .json entry (${files.length} entries)`);
    const byName = new Map(json.map((e) => [e.name, e]));
    return {
      kind: '7z',
      json: json.map((e) => ({ name: e.name, size: e.size })),
      ignored: files.filter((e) => !byName.has(e.name)).map((e) => e.name),
      async *open(name) {
        const entry = byName.get(name);
        if (!entry) throw new MrfReadError(file, 0, `7z archive has no JSON entry ${name}`);
        yield* seven.extract(entry);
      },
      close,
    };
  } catch (e) {
    await close();
    if (e instanceof MrfReadError) throw e;
    throw new MrfReadError(file, 0, `corrupt 7z archive (${(e as Error).message})`);
  }
}

/**
 * Reads an archive of kind `kind` from `bytes` (spooled to disk) and yields the stored bytes of
 * its first JSON entry, noting the others (`<kind> entry <name> read; <n> other entries ignored (...)`).
 */
async function* firstEntry(kind: ArchiveKind, file: string, bytes: AsyncIterable<Buffer>, o: OpenContainerOptions): AsyncGenerator<Buffer> {
  const archive = await openArchive(kind, file, bytes, o.tmpDir);
  try {
    const [entry, ...more] = archive.json.map((e) => e.name);
    const others = [...more, ...archive.ignored];
    if (others.length) o.onNote?.(`${kind} entry ${entry} read; ${others.length} other entries ignored (${others.slice(0, 5).join(', ')})`, entriesIgnoredCode(kind));
    yield* archive.open(entry!);
  } finally {
    await archive.close();
  }
}

/**
 * The container of `input` from its first bytes (sniffContainer), and `input` whole again.
 * @throws MrfReadError (offset 0) for a refused container.
 */
export async function peekContainer<T extends Uint8Array>(file: string, input: AsyncIterable<T>): Promise<{ kind: ContainerKind; bytes: AsyncGenerator<T> }> {
  const it = input[Symbol.asyncIterator]();
  const head: T[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < HEAD_BYTES) {
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
 * Yields the decompressed JSON bytes of `input` (chunks as Buffers, never reused). `inside` is the
 * kind of the archive `input` is an entry of, if any: an archive inside an archive is refused.
 * @throws MrfReadError for a refused container, an archive inside an archive or an unreadable
 *   zip or 7z (offset 0), or a truncated/corrupt gzip stream or an input error (offset =
 *   decompressed bytes yielded before the failure).
 */
export async function* openContainer(file: string, input: AsyncIterable<Buffer>, options: OpenContainerOptions = {}, inside?: ArchiveKind): AsyncGenerator<Buffer> {
  const { kind, bytes: all } = await peekContainer(file, input);
  switch (kind) {
    case 'json':
      yield* all;
      return;
    case 'zip':
    case '7z':
      if (inside) throw new MrfReadError(file, 0, `a ${kind} archive inside a ${inside} archive is not supported`);
      yield* openContainer(file, firstEntry(kind, file, all, options), options, kind);
      return;
    case 'gzip':
      yield* gunzipStream(file, all);
      return;
  }
}

/**
 * The decompressed bytes of the gzip stream `input` (multi-member allowed).
 * @throws MrfReadError at the decompressed bytes yielded before a truncated or corrupt stream.
 */
async function* gunzipStream(file: string, input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const gunzip = createGunzip({ chunkSize: 2 << 20 });
  pipeline(Readable.from(input, { objectMode: false }), gunzip, () => {
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
