/**
 * Checks a local snapshot before the worker switches to it: manifest format and version
 * (contract/dataset.ts), then every file the manifest lists, present, of the listed size and
 * SHA-256 (hashed in full with WebCrypto, one file at a time, with progress).
 *
 * Limit: `crypto.subtle.digest` takes the whole file in memory, so a file must fit in one
 * ArrayBuffer (about 2 GB in Chromium; a few hundred MB is comfortable). No incremental SHA-256
 * library is installed.
 */
import { TABLE_NAMES, type DatasetManifest } from '../../contract/dataset';
import type { HashProgress } from '../../contract/worker';
import { parseManifest } from '../manifest';
import { findLocal } from './local-source';

/** A problem with one file of the snapshot. */
export class SnapshotProblem extends Error {
  override name = 'SnapshotProblem';
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

const hex = (buf: ArrayBuffer): string => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Returns the checked manifest. @throws SnapshotProblem naming the file and the problem.
 */
export async function verifyLocal(byPath: ReadonlyMap<string, Blob>, onProgress?: (p: HashProgress) => void): Promise<DatasetManifest> {
  const manifestBlob = findLocal(byPath, 'manifest.json');
  if (!manifestBlob) throw new SnapshotProblem('manifest.json', 'missing: open the dataset directory, or select its manifest.json with its files');
  let manifest: DatasetManifest;
  try {
    manifest = parseManifest(new Uint8Array(await manifestBlob.arrayBuffer()));
  } catch (e) {
    throw new SnapshotProblem('manifest.json', e instanceof Error ? e.message : String(e));
  }
  const listed: Array<{ file: string; size: number; sha256: string; blob: Blob }> = [];
  for (const t of TABLE_NAMES) {
    const table = manifest.tables[t];
    if (!table) throw new SnapshotProblem('manifest.json', `lists no table ${t}`);
    table.files.forEach((file, i) => {
      const blob = findLocal(byPath, file);
      if (!blob) throw new SnapshotProblem(file, 'missing from the opened files');
      const size = table.bytes[i];
      const sha256 = table.sha256[i];
      if (size === undefined || sha256 === undefined) throw new SnapshotProblem('manifest.json', `no size or SHA-256 for ${file}`);
      if (blob.size !== size) throw new SnapshotProblem(file, `size ${blob.size} bytes, the manifest says ${size}`);
      listed.push({ file, size, sha256: sha256.toLowerCase(), blob });
    });
  }
  const total = listed.reduce((a, f) => a + f.size, 0);
  let done = 0;
  for (const [i, f] of listed.entries()) {
    onProgress?.({ file: f.file, bytesDone: done, bytesTotal: total, filesDone: i, filesTotal: listed.length });
    const digest = hex(await crypto.subtle.digest('SHA-256', await f.blob.arrayBuffer()));
    if (digest !== f.sha256) throw new SnapshotProblem(f.file, `SHA-256 ${digest} does not match the manifest's ${f.sha256}: the file is damaged or from another dataset`);
    done += f.size;
  }
  onProgress?.({ file: '', bytesDone: total, bytesTotal: total, filesDone: listed.length, filesTotal: listed.length });
  return manifest;
}
