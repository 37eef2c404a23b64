/**
 * The sources of one planned in-network file (plan-files.ts): the file itself, or, for a zip
 * archive (recognised by its magic bytes, open-container.ts), each of its JSON entries. Every
 * source of a zip carries the size and SHA-256 of the archive as stored, the file its publisher
 * serves and an auditor can check; a zip that holds one JSON entry is one source under the
 * archive's url, one that bundles several in-network files a source per JSON entry,
 * `<url>#<entry name>`. Files of a zip that are not JSON are noted in `report.json`
 * (`zip_entries_ignored`).
 */
import { createReadStream } from 'node:fs';
import { InputMeter } from '../mrf/meter-input';
import { openZipArchive, peekContainer, type ZipArchive } from '../mrf/open-container';
import { MrfReadError } from '../mrf/types';
import { isHttpUrl, statLocalFile } from './catalog';
import { describeFetchError, fetchStream, type FetchPolicy } from './fetch-policy';
import type { PlannedFile } from './plan-files';

/** One source to read (read-source.ts readSource). */
export interface SourceInput {
  /** The source's url in the manifest and the report: the planned file's, `<url>#<entry>` for one entry of several. */
  url: string;
  /** The name errors give (MrfReadError): the local path or the url, `#<entry>` for one entry of several. */
  name: string;
  /** The stored bytes to read (once): the file's, or the zip entry's as extracted. */
  open(): AsyncIterable<Uint8Array>;
  /** Size of those bytes, when known (progress). */
  size: number | null;
  /** For a zip entry, the archive as stored, which describes the source (read-source.ts `archive`). */
  archive?: { bytes: number; sha256: string };
  /** What the archive held besides (the `zip_entries_ignored` note), on its first source. */
  note?: string;
}

/** The sources of one planned file; `close()` deletes what was spooled for them (a zip's copy). */
export interface OpenedFile {
  sources: SourceInput[];
  close(): Promise<void>;
}

/**
 * Opens planned `file` (a local path or an http(s) URL) and lists its sources. A zip archive is
 * spooled into `tmpDir` first, its stored bytes reported to `onProgress` meanwhile; other files are
 * read as they stream.
 * @throws MrfReadError naming the file: cannot open, read or fetch it, not a file (a directory, a
 *   FIFO ...), a refused container, a corrupt zip or one without a JSON entry (all at offset 0).
 */
export async function openSources(
  file: PlannedFile,
  policy: FetchPolicy,
  tmpDir: string,
  onProgress: (bytesRead: number, totalBytes: number | null) => void,
): Promise<OpenedFile> {
  const { name, input, size } = await openStored(file, policy);
  // the first read's own error (EACCES, a reset connection) names no file
  const { kind, bytes } = await peekContainer(name, input).catch((e: unknown) => {
    throw e instanceof MrfReadError ? e : new MrfReadError(name, 0, `cannot read (${describeFetchError(e)})`);
  });
  if (kind !== 'zip') {
    return { sources: [{ url: file.url, name, open: () => bytes, size }], close: async () => {} };
  }
  const meter = new InputMeter(size, { onProgress });
  const zip = await openZipArchive(name, meter.pipe(bytes), tmpDir);
  const archive = { bytes: meter.bytes, sha256: meter.done() };
  return { sources: entrySources(file, name, zip, archive), close: () => zip.close() };
}

function entrySources(file: PlannedFile, name: string, zip: ZipArchive, archive: { bytes: number; sha256: string }): SourceInput[] {
  const n = zip.ignored.length;
  const listed = `(${zip.ignored.slice(0, 5).join(', ')}${n > 5 ? ', ...' : ''})`;
  if (zip.json.length === 1) {
    const { name: entry, size } = zip.json[0]!;
    const note = n === 0 ? undefined : `zip entry ${entry} read; ${n} other entries ignored ${listed}`;
    return [{ url: file.url, name, open: () => zip.open(entry), size, archive, note }];
  }
  const ignored = n === 0 ? undefined : `${zip.json.length} JSON entries of the zip archive read as sources of their own; ${n} other entries ignored ${listed}`;
  return zip.json.map(({ name: entry, size }, k) => ({
    url: `${file.url}#${entry}`,
    name: `${name}#${entry}`,
    open: () => zip.open(entry),
    size,
    archive,
    note: k === 0 ? ignored : undefined,
  }));
}

/**
 * The stored bytes of `file`, with the name errors give (the local path, or the url) and the size
 * when known. A local path (the catalog's, or a local table of contents') must be a regular file.
 * @throws MrfReadError at offset 0: `<path>: not a file (a directory)`, `cannot open (ENOENT ...)`,
 *   `cannot fetch (HTTP 404 ...)`, `cannot fetch (redirect to file:///... refused ...)`.
 */
async function openStored(file: PlannedFile, policy: FetchPolicy): Promise<{ name: string; input: AsyncIterable<Uint8Array>; size: number | null }> {
  if (!isHttpUrl(file.location)) {
    const found = await statLocalFile(file.location);
    if ('reason' in found) throw new MrfReadError(file.location, 0, found.reason);
    return { name: file.location, input: createReadStream(file.location, { highWaterMark: 1 << 20 }), size: found.size };
  }
  let res: Awaited<ReturnType<typeof fetchStream>>;
  try {
    res = await fetchStream(file.location, policy);
  } catch (e) {
    throw new MrfReadError(file.url, 0, `cannot fetch (${describeFetchError(e)})`);
  }
  return { name: file.url, input: res.body, size: res.size ?? null };
}
