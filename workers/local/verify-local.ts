/**
 * Checks a local snapshot before the worker switches to it: manifest format and version
 * (contract/files/dataset.ts), then every file the manifest lists (derived tables included), present, of the listed size and
 * SHA-256, hashed in full, one file at a time, in slices of HASH_SLICE_BYTES with progress after
 * each slice: hash-wasm's incremental SHA-256, so a file of any size is checked in bounded memory
 * (WebCrypto's `digest` would need the whole file in one buffer).
 */
import { createSHA256 } from 'hash-wasm';
import { DERIVED_TABLE_NAMES, TABLE_NAMES, type DatasetManifest } from '../../contract/files/dataset';
import type { HashProgress } from '../../contract/api';
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

/** Bytes read and hashed at a time (8 MiB): progress moves within large files. */
export const HASH_SLICE_BYTES = 8 * 1024 * 1024;

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
  // the derived tables the manifest lists are checked like the others (a dataset may have none)
  for (const t of [...TABLE_NAMES, ...DERIVED_TABLE_NAMES.filter((d) => manifest.tables[d])]) {
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
  const hasher = await createSHA256();
  for (const [i, f] of listed.entries()) {
    hasher.init();
    for (let at = 0; at < f.size || at === 0; at += HASH_SLICE_BYTES) {
      onProgress?.({ file: f.file, bytesDone: done + at, bytesTotal: total, filesDone: i, filesTotal: listed.length });
      hasher.update(new Uint8Array(await f.blob.slice(at, at + HASH_SLICE_BYTES).arrayBuffer()));
      if (f.size === 0) break;
    }
    const digest = hasher.digest('hex');
    if (digest !== f.sha256) throw new SnapshotProblem(f.file, `SHA-256 ${digest} does not match the manifest's ${f.sha256}: the file is damaged or from another dataset`);
    done += f.size;
  }
  onProgress?.({ file: '', bytesDone: total, bytesTotal: total, filesDone: listed.length, filesTotal: listed.length });
  return manifest;
}
