/**
 * The store of source partitions (docs/converter.md, "Two stages"): what `ingest` made of one
 * planned in-network file, kept so that a later run whose file is unchanged does not parse it again.
 *
 * Layout: `<store>/sources/insurer=<id>/snapshot=<YYYY-MM>/<source key>/`, holding the raw tables'
 * Parquet files (spool.ts PARTITION_TABLES) and `source.json` (PartitionRecord). The source key
 * is the file name's readable part and a hash of its URL without its signature
 * (plan-filter.ts unsignedLocation), so the monthly re-signed links of one file share a key. A
 * partition is written in a temporary sibling and renamed into place (atomic-dir.ts), its record
 * last: a partition directory that exists is complete, and a killed run leaves only temporary
 * siblings, which the next write of that partition removes.
 *
 * A partition is reused when its record's settings (converter version, billing-code filter, remote
 * references) are the run's and the file's identity is unchanged (sameIdentity).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isS3Store, s3GetPartition, s3Join, s3List, s3PutPartition, s3ReadText } from './s3-store';
import type { ManifestSource } from '../../contract/dataset';
import type { Problem } from './problems';
import { isHttpUrl } from './catalog';
import { fetchHead, fetchStream, type FetchPolicy } from './fetch-policy';
import { makeTempSibling, recoverStale, swapIntoPlace } from './atomic-dir';
import { unsignedLocation } from './plan-filter';
import type { PlannedFile } from './plan-files';

/** `source.json`'s `format`. */
export const PARTITION_FORMAT = 'compete-source-partition';

/** The layout of a partition's files and record; a partition of another version is ingested again. */
export const PARTITION_VERSION = 1;

/** The record's file name in a partition. */
export const RECORD_FILE = 'source.json';

/**
 * What a stored file is, for deciding whether a partition still describes it (sameIdentity):
 * validators as the server gave them with the file, and the SHA-256 and size of the bytes read.
 */
export interface SourceIdentity {
  /** The URL (or the catalog's path) without its signature query (plan-filter.ts unsignedLocation). */
  unsigned_url: string;
  /** A strong ETag (a weak `W/` one is not kept: it does not promise the same bytes). */
  etag?: string;
  /** HTTP Last-Modified, as sent. */
  last_modified?: string;
  /** HTTP Content-Length, bytes. */
  content_length?: number;
  /** SHA-256 of the stored bytes (the archive's for an archive), lower-case hex. */
  sha256: string;
  /** Size of the stored bytes. */
  bytes: number;
}

/**
 * What changes the content of a partition besides the file: a partition made under other settings
 * is ingested again.
 */
export interface IngestSettings {
  converter_version: string;
  /** SHA-256 of the sorted billing-code filter, one code a line; null without a filter. */
  billing_codes: string | null;
  /** Remote provider references were fetched. */
  remote_references: boolean;
}

/**
 * One source of a partition (an archive that bundles several in-network files has one per JSON
 * entry): the fields of its manifest entry (contract/dataset.ts ManifestSource) that come from the
 * file; `snapshot` is `file.snapshot`, else the month of `last_updated_on` (snapshot.ts).
 */
export type PartitionSource = Pick<ManifestSource, 'url' | 'snapshot' | 'reporting_entity_name' | 'reporting_entity_type' | 'last_updated_on'
  | 'version' | 'bytes' | 'sha256'> & {
  unresolved_provider_references: number;
  /**
   * What the reader counted in the file: `in_network` items read and skipped by the billing-code
   * filter, rate rows as read (a price x each provider group its rate names, before the build's
   * checks), provider references, bytes of JSON.
   */
  counts: { items: number; skipped_items: number; rate_rows: number; provider_references: number; json_bytes: number };
};

/** The problems of one partition's ingest (problems.ts ProblemLog's parts). */
export interface PartitionProblems {
  total: number;
  counts: Record<string, Record<string, number>>;
  kept: Problem[];
  failed_files: Array<{ file: string; reason: string }>;
}

/** `source.json`. */
export interface PartitionRecord {
  format: typeof PARTITION_FORMAT;
  version: number;
  insurer_id: string;
  /** The snapshot of the partition's path. */
  snapshot: string;
  /** The planned file's url, as the catalog or table of contents named it. */
  url: string;
  identity: SourceIdentity;
  settings: IngestSettings;
  /** When it was ingested, ISO 8601. */
  ingested_at: string;
  sources: PartitionSource[];
  problems: PartitionProblems;
}

/** A partition found in the store. */
export interface StoredPartition {
  dir: string;
  record: PartitionRecord;
}

/**
 * The key of a planned file's partition: the last path segment of its URL without signature,
 * reduced to `[A-Za-z0-9._-]` (at most 60 characters), a dash and 16 hex digits of the SHA-256 of
 * that URL. Stable across months for a file whose links are re-signed.
 */
export function sourceKey(url: string): string {
  const unsigned = unsignedLocation(url);
  const last = unsigned.replace(/[?#].*$/, '').split(/[\\/]/).filter(Boolean).pop() ?? 'file';
  const slug = last.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'file';
  return `${slug}-${createHash('sha256').update(unsigned).digest('hex').slice(0, 16)}`;
}

/** A path segment `name=value` with the value percent-encoded where it is not `[A-Za-z0-9._-]`. */
const segment = (name: string, value: string): string => `${name}=${value.replace(/[^A-Za-z0-9._-]/g, (c) => encodeURIComponent(c))}`;

/** A location under a store: a path, or `/`-joined under an S3 location. */
const under = (store: string, ...parts: string[]): string => (isS3Store(store) ? s3Join(store, ...parts) : path.join(store, ...parts));

/** The directory of an insurer's partitions. */
const insurerDir = (store: string, insurerId: string): string => under(store, 'sources', segment('insurer', insurerId));

/** The directory (or S3 location) of a partition. */
export function partitionDir(store: string, insurerId: string, snapshot: string, key: string): string {
  return under(insurerDir(store, insurerId), segment('snapshot', snapshot), key);
}

/** A store location as runs use it: an S3 URL as given, a directory made absolute. */
export const resolveStore = (store: string): string => (isS3Store(store) ? store : path.resolve(store));

/**
 * The ingest settings of a run.
 * @param billingCodes the catalog's billing-code filter, if any
 */
export function ingestSettings(converterVersion: string, billingCodes: ReadonlySet<string> | undefined, remoteReferences: boolean): IngestSettings {
  const codes = billingCodes ? createHash('sha256').update([...billingCodes].sort().join('\n')).digest('hex') : null;
  return { converter_version: converterVersion, billing_codes: codes, remote_references: remoteReferences };
}

/** Reads a partition's record; null when it is missing or not a record of this version. */
async function readRecord(dir: string): Promise<PartitionRecord | null> {
  try {
    const text = isS3Store(dir) ? await s3ReadText(s3Join(dir, RECORD_FILE)) : await readFile(path.join(dir, RECORD_FILE), 'utf8');
    if (text === null) return null;
    const r = JSON.parse(text) as Partial<PartitionRecord> | null;
    return r?.format === PARTITION_FORMAT && r.version === PARTITION_VERSION && Array.isArray(r.sources) ? (r as PartitionRecord) : null;
  } catch {
    return null;
  }
}

/**
 * The partitions of planned `file` in `store`: the one of its snapshot when the catalog gives it,
 * else those of every snapshot of its insurer under its key (a file whose month comes from its
 * `last_updated_on`), newest ingest first.
 */
export async function findPartitions(store: string, file: PlannedFile): Promise<StoredPartition[]> {
  const key = sourceKey(file.url);
  const dirs = file.snapshot !== undefined
    ? [partitionDir(store, file.insurerId, file.snapshot, key)]
    : (await (isS3Store(store) ? s3List(insurerDir(store, file.insurerId)) : readdir(insurerDir(store, file.insurerId))).catch(() => [] as string[]))
        .filter((d) => d.startsWith('snapshot=')).sort()
        .map((d) => under(insurerDir(store, file.insurerId), d, key));
  const found: StoredPartition[] = [];
  for (const dir of dirs) {
    const record = await readRecord(dir);
    if (record && record.insurer_id === file.insurerId && unsignedLocation(record.url) === unsignedLocation(file.url)) found.push({ dir, record });
  }
  return found.sort((a, b) => b.record.ingested_at.localeCompare(a.record.ingested_at));
}

/** Validators of a response (a strong ETag, Last-Modified, Content-Length), as SourceIdentity holds them. */
export function validatorsOf(headers: Headers): Pick<SourceIdentity, 'etag' | 'last_modified' | 'content_length'> {
  const etag = headers.get('etag');
  const modified = headers.get('last-modified');
  const length = Number(headers.get('content-length') ?? NaN);
  return {
    ...(etag && !etag.startsWith('W/') ? { etag } : {}),
    ...(modified ? { last_modified: modified } : {}),
    ...(Number.isSafeInteger(length) && length >= 0 && headers.get('content-length') !== null ? { content_length: length } : {}),
  };
}

/** SHA-256 (lower-case hex) and size of a stream's bytes. */
async function hashOf(input: AsyncIterable<Uint8Array>): Promise<{ sha256: string; bytes: number }> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of input) {
    h.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: h.digest('hex'), bytes };
}

/** How an identity was checked: by `etag`, `last_modified` (with Content-Length) or `sha256`. */
export type IdentityCheck = 'etag' | 'last_modified' | 'sha256';

/**
 * Whether `stored` still describes planned `file` as it is now, and how that was decided: for an
 * http(s) file a HEAD request compares a strong ETag, else Last-Modified and Content-Length; a
 * local file, or a server that gives neither, is read and its SHA-256 compared (read, not parsed).
 * A file that cannot be reached now is not the same (its ingest then reports why).
 */
export async function sameIdentity(stored: SourceIdentity, file: PlannedFile, policy: FetchPolicy): Promise<{ same: boolean; by: IdentityCheck }> {
  try {
    if (unsignedLocation(file.url) !== stored.unsigned_url) return { same: false, by: 'sha256' };
    if (!isHttpUrl(file.location)) {
      const now = await hashOf(createReadStream(file.location, { highWaterMark: 1 << 20 }));
      return { same: now.sha256 === stored.sha256 && now.bytes === stored.bytes, by: 'sha256' };
    }
    const head = validatorsOf(await fetchHead(file.location, policy));
    if (head.etag !== undefined && stored.etag !== undefined) return { same: head.etag === stored.etag, by: 'etag' };
    if (head.last_modified !== undefined && head.content_length !== undefined && stored.last_modified !== undefined) {
      return { same: head.last_modified === stored.last_modified && head.content_length === stored.content_length, by: 'last_modified' };
    }
    const now = await hashOf((await fetchStream(file.location, policy)).body);
    return { same: now.sha256 === stored.sha256 && now.bytes === stored.bytes, by: 'sha256' };
  } catch {
    return { same: false, by: 'sha256' };
  }
}

/** Settings equal field by field. */
export const sameSettings = (a: IngestSettings, b: IngestSettings): boolean =>
  a.converter_version === b.converter_version && a.billing_codes === b.billing_codes && a.remote_references === b.remote_references;

/**
 * Writes partition `dir` atomically: `fill` writes the Parquet files into a temporary sibling,
 * then `record` is written there and the sibling renamed into place (replacing an older
 * partition). Stale temporary siblings of killed runs are removed first.
 * @throws what `fill` throws, or when the directory cannot be written; nothing is left in place then.
 */
export async function writePartition(dir: string, record: PartitionRecord, fill: (tmpDir: string) => Promise<void>): Promise<void> {
  if (isS3Store(dir)) {
    // written on this disk, then uploaded record last (s3-store.ts)
    const local = await mkdtemp(path.join(os.tmpdir(), 'compete-partition-'));
    try {
      await fill(local);
      await writeFile(path.join(local, RECORD_FILE), JSON.stringify(record, null, 2));
      await s3PutPartition(local, dir, RECORD_FILE);
    } finally {
      await rm(local, { recursive: true, force: true });
    }
    return;
  }
  await recoverStale(dir);
  const tmp = await makeTempSibling(dir);
  try {
    await fill(tmp);
    await writeFile(path.join(tmp, RECORD_FILE), JSON.stringify(record, null, 2));
    await swapIntoPlace(tmp, dir);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

/**
 * A local directory holding partition `dir`'s files: `dir` itself on a file system; for a partition
 * in a bucket, a copy downloaded into a new directory under `workDir`, which `done()` removes.
 * @throws on an S3 error.
 */
export async function localPartition(dir: string, workDir: string): Promise<{ dir: string; done(): Promise<void> }> {
  if (!isS3Store(dir)) return { dir, done: async () => {} };
  const local = await mkdtemp(path.join(workDir, 'partition-'));
  try {
    await s3GetPartition(dir, local);
  } catch (e) {
    await rm(local, { recursive: true, force: true });
    throw e;
  }
  return { dir: local, done: () => rm(local, { recursive: true, force: true }) };
}
