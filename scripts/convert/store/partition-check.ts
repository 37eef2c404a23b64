/**
 * The integrity of the store's partitions (docs/converter.md, Two stages): a partition's files are
 * checked against the sizes and SHA-256 its record keeps (source-store.ts PartitionRecord.files)
 * before a run uses it, so that a truncated, missing or swapped Parquet file is found and named
 * instead of failing every later build with DuckDB's message. A run that reads files ingests such a
 * partition's file again (ingest-file.ts reusablePartition); a build alone stops, naming the partition,
 * the file and the remedy.
 */
import { firstMismatch, sizeMismatch, type FileChecksums, type FileMismatch } from './file-checksums';
import type { PlannedFile } from '../plan/plan-files';
import { isS3Store, s3Sizes } from './s3-store';
import { findPartitions, isPartitionData, localPartition, RECORD_FILE, sameSettings, whyNoPartition, type IngestSettings, type StoredPartition } from './source-store';
import type { Spool } from '../spool/spool';

/**
 * The first file of stored partition `part` that does not match its record (file-checksums.ts),
 * null when all do: in a directory, the sizes then the SHA-256 of every file; in a bucket, the sizes
 * its listing gives (the SHA-256 is checked once the build has downloaded the files,
 * loadStoredPartition). A record without checksums matches nothing.
 * @throws on an S3 error.
 */
export async function checkPartition(part: StoredPartition): Promise<FileMismatch | null> {
  const files = part.record.files as FileChecksums | undefined | null;
  if (files === undefined || files === null || typeof files !== 'object') return { file: RECORD_FILE, reason: 'lists no checksums of its files' };
  if (!isS3Store(part.dir)) return firstMismatch(part.dir, files, isPartitionData);
  return sizeMismatch(await s3Sizes(part.dir), files, isPartitionData);
}

/** A partition whose files do not match its record, or cannot be loaded; the message names both. */
export class DamagedPartitionError extends Error {
  override name = 'DamagedPartitionError';
}

/** `partition <dir>: <file> <reason>`: a damaged partition and its file, for warnings and errors. */
export const damageOf = (part: StoredPartition, m: FileMismatch): string => `partition ${part.dir}: ${m.file} ${m.reason}`;

/** The message of a damaged partition for a run that cannot read its file again: damageOf and the remedy. */
const damagedMessage = (part: StoredPartition, m: FileMismatch): string =>
  `${damageOf(part, m)}; run ingest again to read ${part.record.url} anew (or delete the partition)`;

/**
 * The partition a build alone uses for planned `file`: the newest one made with `settings` (no
 * file is read, so the file's identity is not checked), its files checked (checkPartition);
 * `{ missing }` with the reason there is none (source-store.ts whyNoPartition).
 * @throws DamagedPartitionError naming the partition, the file and the remedy when its files do not
 *   match its record; an S3 error.
 */
export async function partitionForBuild(store: string, file: PlannedFile, settings: IngestSettings): Promise<StoredPartition | { missing: string }> {
  const found = (await findPartitions(store, file)).find((p) => sameSettings(p.record.settings, settings));
  if (!found) return { missing: await whyNoPartition(store, file, settings) };
  const m = await checkPartition(found);
  if (m) throw new DamagedPartitionError(damagedMessage(found, m));
  return found;
}

/**
 * Appends stored partition `part` to the build's working database (spool.ts loadPartition), its
 * sources numbered from `sourceBase`: a partition in a bucket is downloaded under `workDir` and its
 * files checked against the SHA-256 of its record first (one in a directory was checked when the
 * run chose it).
 * @throws DamagedPartitionError naming the partition and the file when a downloaded file does not
 *   match its record, or when DuckDB cannot load the files (its reason); an S3 error.
 */
export async function loadStoredPartition(spool: Spool, part: StoredPartition, workDir: string, sourceBase: number): Promise<void> {
  const local = await localPartition(part.dir, workDir);
  try {
    if (isS3Store(part.dir)) {
      const m = await firstMismatch(local.dir, part.record.files, isPartitionData);
      if (m) throw new DamagedPartitionError(damagedMessage(part, m));
    }
    try {
      await spool.loadPartition(local.dir, sourceBase);
    } catch (e) {
      throw new DamagedPartitionError(damagedMessage(part, { file: 'its Parquet', reason: `cannot be loaded: ${(e as Error).message}` }));
    }
  } finally {
    await local.done();
  }
}
