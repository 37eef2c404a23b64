/**
 * SHA-256 and size of the files of a directory, and their comparison with such a list: what a
 * store partition's record keeps of its Parquet files (source-store.ts PartitionRecord.files), so
 * that a truncated, missing or swapped file is found before the build reads it (docs/converter.md,
 * Two stages). Hashing streams the files through node:crypto (hardware SHA-256, over 1 GB/s), a
 * small cost beside the ingest that wrote them or the build that loads them.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** One file's checksum. */
export interface FileChecksum {
  /** Size, bytes. */
  bytes: number;
  /** SHA-256 of its bytes, lower-case hex. */
  sha256: string;
}

/** Checksums by path relative to the directory, `/`-separated (`raw_price_rows/data_0.parquet`). */
export type FileChecksums = Record<string, FileChecksum>;

/** A file that does not match its checksum: its relative path and why. */
export interface FileMismatch {
  file: string;
  reason: string;
}

/**
 * SHA-256 and size of a stream's bytes.
 * @throws what the stream throws.
 */
export async function hashStream(input: AsyncIterable<Uint8Array>): Promise<FileChecksum> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of input) {
    h.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: h.digest('hex') };
}

/**
 * SHA-256 and size of a file's bytes, streamed.
 * @throws when the file cannot be read (ENOENT, EACCES).
 */
export const hashFile = (file: string): Promise<FileChecksum> =>
  hashStream(createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>);

/** Which files of a directory a list of checksums covers, by relative `/`-separated path. */
export type FileFilter = (rel: string) => boolean;

/** Every file under `dir` that `keep` selects, relative `/`-separated paths, sorted. */
async function filesUnder(dir: string, keep: FileFilter): Promise<string[]> {
  const out: string[] = [];
  for (const rel of await readdir(dir, { recursive: true })) {
    const posix = rel.split(path.sep).join('/');
    if (keep(posix) && (await stat(path.join(dir, rel))).isFile()) out.push(posix);
  }
  return out.sort();
}

/**
 * The checksums of every file under `dir` that `keep` selects.
 * @throws when a file cannot be read.
 */
export async function fileChecksums(dir: string, keep: FileFilter): Promise<FileChecksums> {
  const out: FileChecksums = {};
  for (const rel of await filesUnder(dir, keep)) out[rel] = await hashFile(path.join(dir, rel));
  return out;
}

/**
 * The first difference between files of sizes `sizes` (relative path -> bytes) and `expected`:
 * a listed file missing, of another size, or a file `keep` selects that is not listed (one the
 * reader would take too). Null when the sizes agree; contents are not compared.
 */
export function sizeMismatch(sizes: ReadonlyMap<string, number>, expected: FileChecksums, keep: FileFilter): FileMismatch | null {
  for (const [rel, want] of Object.entries(expected)) {
    const size = sizes.get(rel);
    if (size === undefined) return { file: rel, reason: 'is missing' };
    if (size !== want.bytes) return { file: rel, reason: `has ${size} bytes, its record says ${want.bytes}` };
  }
  for (const rel of sizes.keys()) {
    if (keep(rel) && !Object.hasOwn(expected, rel)) return { file: rel, reason: 'is not in its record' };
  }
  return null;
}

/**
 * The first file under `dir` that does not match `expected` (the files `keep` selects): sizes
 * first, for all files (sizeMismatch: a truncated or missing file is found without hashing), then
 * the SHA-256 of each (a file copied in from elsewhere). Null when every file matches.
 * @throws when a listed file exists but cannot be read.
 */
export async function firstMismatch(dir: string, expected: FileChecksums, keep: FileFilter): Promise<FileMismatch | null> {
  const files = await filesUnder(dir, keep).catch(() => [] as string[]);
  const sizes = new Map<string, number>();
  for (const rel of files) sizes.set(rel, (await stat(path.join(dir, rel))).size);
  const bySize = sizeMismatch(sizes, expected, keep);
  if (bySize) return bySize;
  for (const [rel, want] of Object.entries(expected)) {
    if ((await hashFile(path.join(dir, rel))).sha256 !== want.sha256) return { file: rel, reason: 'does not match the SHA-256 of its record' };
  }
  return null;
}
