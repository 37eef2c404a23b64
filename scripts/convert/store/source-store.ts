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
 * references) are the run's, the file's identity is unchanged (sameIdentity) and its files are the
 * ones its record lists (checkPartition: size and SHA-256 of each, file-checksums.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isS3Store, s3GetPartition, s3Join, s3List, s3PutPartition, s3ReadText } from './s3-store';
import { fileChecksums, hashFile, hashStream, type FileChecksums } from './file-checksums';
import type { ManifestSource } from '../../../contract/files/dataset';
import type { Problem } from '../common/problems';
import { isHttpUrl } from '../plan/catalog';
import { fetchHead, fetchStream, type FetchPolicy } from '../plan/fetch-policy';
import { makeTempSibling, recoverStale, swapIntoPlace } from '../common/atomic-dir';
import { unsignedLocation } from '../plan/plan-filter';
import type { PlannedFile } from '../plan/plan-files';

/** `source.json`'s `format`. */
export const PARTITION_FORMAT = 'compete-source-partition';

/**
 * The layout of a partition's files and record; a partition of another version is ingested again
 * (and named as such by a build alone, whyNoPartition). Version 2 records the checksums of the
 * files (`files`): a version-1 record, which has none, is never trusted to describe its files.
 * Version 3 adds `raw_groups.network_name` (the provider references' networks, spool.ts).
 */
export const PARTITION_VERSION = 3;

/** The record's file name in a partition. */
export const RECORD_FILE = 'source.json';

/**
 * The files of a partition that its record's checksums cover: its Parquet files, those the build
 * loads (spool.ts PARTITION_TABLES); not the record, nor the marker of a temporary sibling (atomic-dir.ts).
 */
export const isPartitionData = (rel: string): boolean => rel.endsWith('.parquet');

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
 * entry): the fields of its manifest entry (contract/files/dataset.ts ManifestSource) that come from the
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
  /**
   * Size and SHA-256 of every Parquet file of the partition (isPartitionData), by path relative to the
   * partition (`raw_items.parquet`, `raw_price_rows/data_0.parquet`); computed once the files are
   * written, before the record (writePartition).
   */
  files: FileChecksums;
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

/**
 * Reads a partition's record: the record when it is one of this version; `other` (its version) for
 * a partition record of another version; null when it is missing or not a partition record.
 */
async function readRecord(dir: string): Promise<{ record: PartitionRecord } | { other: unknown } | null> {
  try {
    const text = isS3Store(dir) ? await s3ReadText(s3Join(dir, RECORD_FILE)) : await readFile(path.join(dir, RECORD_FILE), 'utf8');
    if (text === null) return null;
    const r = JSON.parse(text) as Partial<PartitionRecord> | null;
    if (r?.format !== PARTITION_FORMAT || !Array.isArray(r.sources)) return null;
    return r.version === PARTITION_VERSION ? { record: r as PartitionRecord } : { other: r.version };
  } catch {
    return null;
  }
}

/**
 * The directories that may hold planned `file`'s partition: the one of its snapshot when the
 * catalog gives it, else one under every snapshot of its insurer (a file whose month comes from its
 * `last_updated_on`).
 */
async function candidateDirs(store: string, file: PlannedFile): Promise<string[]> {
  const key = sourceKey(file.url);
  if (file.snapshot !== undefined) return [partitionDir(store, file.insurerId, file.snapshot, key)];
  const snapshots = await (isS3Store(store) ? s3List(insurerDir(store, file.insurerId)) : readdir(insurerDir(store, file.insurerId))).catch(() => [] as string[]);
  return snapshots.filter((d) => d.startsWith('snapshot=')).sort().map((d) => under(insurerDir(store, file.insurerId), d, key));
}

/**
 * The partitions of planned `file` in `store` (candidateDirs) whose record is of this version,
 * newest ingest first.
 */
export async function findPartitions(store: string, file: PlannedFile): Promise<StoredPartition[]> {
  const found: StoredPartition[] = [];
  for (const dir of await candidateDirs(store, file)) {
    const r = await readRecord(dir);
    if (r && 'record' in r && r.record.insurer_id === file.insurerId && unsignedLocation(r.record.url) === unsignedLocation(file.url)) {
      found.push({ dir, record: r.record });
    }
  }
  return found.sort((a, b) => b.record.ingested_at.localeCompare(a.record.ingested_at));
}

/**
 * Why planned `file` has no partition in `store` that a run with `settings` can use, for a build
 * alone: none at all (`no partition in <store>`), one of another record version, or one made with
 * other settings, each differing setting named with both values (settingsDifferences).
 */
export async function whyNoPartition(store: string, file: PlannedFile, settings: IngestSettings): Promise<string> {
  const found = await findPartitions(store, file);
  const made = found[0];
  if (made) return `its partition ${made.dir} was made with ${settingsDifferences(made.record.settings, settings).join(', ')}`;
  for (const dir of await candidateDirs(store, file)) {
    const r = await readRecord(dir);
    if (r && 'other' in r) return `its partition ${dir} has a record of version ${String(r.other)} (this converter reads version ${PARTITION_VERSION})`;
  }
  return `no partition in ${store}`;
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
      const now = await hashFile(file.location);
      return { same: now.sha256 === stored.sha256 && now.bytes === stored.bytes, by: 'sha256' };
    }
    const head = validatorsOf(await fetchHead(file.location, policy));
    if (head.etag !== undefined && stored.etag !== undefined) return { same: head.etag === stored.etag, by: 'etag' };
    if (head.last_modified !== undefined && head.content_length !== undefined && stored.last_modified !== undefined) {
      return { same: head.last_modified === stored.last_modified && head.content_length === stored.content_length, by: 'last_modified' };
    }
    const now = await hashStream((await fetchStream(file.location, policy)).body);
    return { same: now.sha256 === stored.sha256 && now.bytes === stored.bytes, by: 'sha256' };
  } catch {
    return { same: false, by: 'sha256' };
  }
}

/** Settings equal field by field. */
export const sameSettings = (a: IngestSettings, b: IngestSettings): boolean =>
  a.converter_version === b.converter_version && a.billing_codes === b.billing_codes && a.remote_references === b.remote_references;

/**
 * The settings in which a partition's `made` differ from a run's `run`, each as
 * `<setting> <partition's value> (this run: <run's value>)`; a billing-code filter is shown by the
 * first 12 hex digits of its SHA-256 (ingestSettings).
 */
export function settingsDifferences(made: IngestSettings, run: IngestSettings): string[] {
  const filter = (v: string | null): string => (v === null ? 'none' : `SHA-256 ${v.slice(0, 12)}`);
  const remote = (v: boolean): string => (v ? 'fetched' : 'not fetched');
  const out: string[] = [];
  if (made.converter_version !== run.converter_version) out.push(`converter version ${made.converter_version} (this run: ${run.converter_version})`);
  if (made.billing_codes !== run.billing_codes) out.push(`billing-code filter ${filter(made.billing_codes)} (this run: ${filter(run.billing_codes)})`);
  if (made.remote_references !== run.remote_references) {
    out.push(`remote references ${remote(made.remote_references)} (this run: ${remote(run.remote_references)})`);
  }
  return out;
}

/**
 * Writes partition `dir` atomically: `fill` writes the Parquet files into a temporary sibling,
 * then their checksums are added to `record` (`files`), the record is written there and the
 * sibling renamed into place (replacing an older partition). Stale temporary siblings of killed
 * runs are removed first. Returns the record as written.
 * @throws what `fill` throws, or when the directory cannot be written; nothing is left in place then.
 */
export async function writePartition(dir: string, record: Omit<PartitionRecord, 'files'>, fill: (tmpDir: string) => Promise<void>): Promise<PartitionRecord> {
  const complete = async (local: string): Promise<PartitionRecord> => {
    await fill(local);
    const full: PartitionRecord = { ...record, files: await fileChecksums(local, isPartitionData) };
    await writeFile(path.join(local, RECORD_FILE), JSON.stringify(full, null, 2));
    return full;
  };
  if (isS3Store(dir)) {
    // written on this disk, then uploaded record last (s3-store.ts)
    const local = await mkdtemp(path.join(os.tmpdir(), 'compete-partition-'));
    try {
      const full = await complete(local);
      await s3PutPartition(local, dir, RECORD_FILE);
      return full;
    } finally {
      await rm(local, { recursive: true, force: true });
    }
  }
  await recoverStale(dir);
  const tmp = await makeTempSibling(dir);
  try {
    const full = await complete(tmp);
    await swapIntoPlace(tmp, dir);
    return full;
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
