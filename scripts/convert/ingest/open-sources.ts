/**
 * The sources of one planned in-network file (plan-files.ts): the file itself, or, for a zip or 7z
 * archive (recognised by its magic bytes, open-container.ts), each of its JSON entries. Every
 * source of an archive carries the size and SHA-256 of the archive as stored, the file its
 * publisher serves and an auditor can check; an archive that holds one JSON entry is one source
 * under the archive's url, one that bundles several in-network files a source per JSON entry,
 * `<url>#<entry name>`. Files of an archive that are not JSON are noted in `report.json`
 * (`zip_entries_ignored`, `7z_entries_ignored`). Zip and 7z follow the same rules, by the same code.
 */
import { createReadStream } from 'node:fs';
import { InputMeter } from '../../mrf/meter-input';
import { entriesIgnoredCode, openArchive, peekContainer, type Archive, type ArchiveKind, type EntriesIgnoredCode } from '../../mrf/open-container';
import { MrfReadError } from '../../mrf/types';
import { isHttpUrl, statLocalFile } from '../plan/catalog';
import { describeFetchError, fetchStream, type FetchPolicy } from '../plan/fetch-policy';
import type { PlannedFile } from '../plan/plan-files';
import { validatorsOf, type SourceIdentity } from '../store/source-store';

/** HTTP validators of a stored file. */
type Validators = Pick<SourceIdentity, 'etag' | 'last_modified' | 'content_length'>;

/** One source to read (read-source.ts readSource). */
export interface SourceInput {
  /** The source's url in the manifest and the report: the planned file's, `<url>#<entry>` for one entry of several. */
  url: string;
  /** The name errors give (MrfReadError): the local path or the url, `#<entry>` for one entry of several. */
  name: string;
  /** The stored bytes to read (once): the file's, or the archive entry's as extracted. */
  open(): AsyncIterable<Uint8Array>;
  /** Size of those bytes, when known (progress). */
  size: number | null;
  /** For an archive entry, the archive as stored, which describes the source (read-source.ts `archive`). */
  archive?: StoredArchive;
  /** What the archive held besides (the `<kind>_entries_ignored` note), on its first source. */
  note?: { code: EntriesIgnoredCode; message: string };
}

/** An archive as stored: its kind, bytes and SHA-256 (lower-case hex). */
export interface StoredArchive {
  kind: ArchiveKind;
  bytes: number;
  sha256: string;
}

/** The sources of one planned file; `close()` deletes what was spooled for them (an archive's copy). */
export interface OpenedFile {
  sources: SourceInput[];
  /** The HTTP validators the file was served with (source-store.ts SourceIdentity); none for a local file. */
  validators: Validators;
  close(): Promise<void>;
}

/**
 * Opens planned `file` (a local path or an http(s) URL) and lists its sources. A zip or 7z archive
 * is spooled into `tmpDir` first, its stored bytes reported to `onProgress` meanwhile; other files
 * are read as they stream.
 * @throws MrfReadError naming the file: cannot open, read or fetch it, not a file (a directory, a
 *   FIFO ...), a refused container, a corrupt zip or 7z or one without a JSON entry, 7-Zip cannot
 *   run (all at offset 0).
 */
export async function openSources(
  file: PlannedFile,
  policy: FetchPolicy,
  tmpDir: string,
  onProgress: (bytesRead: number, totalBytes: number | null) => void,
): Promise<OpenedFile> {
  const { name, input, size, validators } = await openStored(file, policy);
  // the first read's own error (EACCES, a reset connection) names no file
  const { kind, bytes } = await peekContainer(name, input).catch((e: unknown) => {
    throw e instanceof MrfReadError ? e : new MrfReadError(name, 0, `cannot read (${describeFetchError(e)})`);
  });
  if (kind === 'json' || kind === 'gzip') {
    return { sources: [{ url: file.url, name, open: () => bytes, size }], validators, close: async () => {} };
  }
  const meter = new InputMeter(size, { onProgress });
  const archive = await openArchive(kind, name, meter.pipe(bytes), tmpDir);
  const stored: StoredArchive = { kind, bytes: meter.bytes, sha256: meter.done() };
  return { sources: entrySources(file, name, archive, stored), validators, close: () => archive.close() };
}

/** One source per JSON entry of `archive` (one under the file's own url when it is the only one), the ignored files noted on the first. */
function entrySources(file: PlannedFile, name: string, archive: Archive, stored: StoredArchive): SourceInput[] {
  const n = archive.ignored.length;
  const listed = `(${archive.ignored.slice(0, 5).join(', ')}${n > 5 ? ', ...' : ''})`;
  const code = entriesIgnoredCode(archive.kind);
  if (archive.json.length === 1) {
    const { name: entry, size } = archive.json[0]!;
    const note = n === 0 ? undefined : { code, message: `${archive.kind} entry ${entry} read; ${n} other entries ignored ${listed}` };
    return [{ url: file.url, name, open: () => archive.open(entry), size, archive: stored, note }];
  }
  const ignored = n === 0 ? undefined : {
    code,
    message: `${archive.json.length} JSON entries of the ${archive.kind} archive read as sources of their own; ${n} other entries ignored ${listed}`,
  };
  return archive.json.map(({ name: entry, size }, k) => ({
    url: `${file.url}#${entry}`,
    name: `${name}#${entry}`,
    open: () => archive.open(entry),
    size,
    archive: stored,
    note: k === 0 ? ignored : undefined,
  }));
}

/**
 * The stored bytes of `file`, with the name errors give (the local path, or the url) and the size
 * when known. A local path (the catalog's, or a local table of contents') must be a regular file.
 * @throws MrfReadError at offset 0: `<path>: not a file (a directory)`, `cannot open (ENOENT ...)`,
 *   `cannot fetch (HTTP 404 ...)`, `cannot fetch (redirect to file:///... refused ...)`.
 */
async function openStored(file: PlannedFile, policy: FetchPolicy): Promise<{ name: string; input: AsyncIterable<Uint8Array>; size: number | null; validators: Validators }> {
  if (!isHttpUrl(file.location)) {
    const found = await statLocalFile(file.location);
    if ('reason' in found) throw new MrfReadError(file.location, 0, found.reason);
    return { name: file.location, input: createReadStream(file.location, { highWaterMark: 1 << 20 }), size: found.size, validators: {} };
  }
  let res: Awaited<ReturnType<typeof fetchStream>>;
  try {
    res = await fetchStream(file.location, policy);
  } catch (e) {
    throw new MrfReadError(file.url, 0, `cannot fetch (${describeFetchError(e)})`);
  }
  return { name: file.url, input: res.body, size: res.size ?? null, validators: validatorsOf(res.headers) };
}
