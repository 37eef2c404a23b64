/**
 * A dataset opened from disk (an auditor's local snapshot): files the user picked, by their path
 * inside the dataset directory. Reads are `Blob` reads (range reads by `Blob.slice`): no network.
 */
import { SourceError } from '../db/errors';
import type { BlobLike, ByteSource } from '../platform';
import type { LocalFile } from '../../contract/api';

/**
 * Paths relative to the dataset directory: the leading directory shared by every path (the
 * directory the user picked) is dropped. Returns the map and that directory's name ('' if none).
 */
export function localIndex(files: readonly LocalFile[]): { byPath: Map<string, Blob>; dirName: string } {
  const paths = files.map((f) => f.path.replace(/\\/g, '/').replace(/^\/+/, ''));
  const first = paths[0]?.split('/')[0] ?? '';
  const shared = paths.length > 0 && paths.every((p) => p.includes('/') && p.split('/')[0] === first);
  const byPath = new Map<string, Blob>();
  paths.forEach((p, i) => byPath.set(shared ? p.slice(first.length + 1) : p, files[i]!.file));
  return { byPath, dirName: shared ? first : '' };
}

/**
 * The file a manifest names: by its path, else (files picked one by one, no directory) by its
 * base name when exactly one picked file has it.
 */
export function findLocal(byPath: ReadonlyMap<string, Blob>, file: string): Blob | undefined {
  const exact = byPath.get(file);
  if (exact) return exact;
  const base = file.split('/').pop()!;
  const hits = [...byPath].filter(([p]) => p.split('/').pop() === base);
  return hits.length === 1 ? hits[0]![1] : undefined;
}

/** A ByteSource over picked files. @throws SourceError naming a missing file. */
export function localSource(byPath: ReadonlyMap<string, Blob>): ByteSource {
  const get = (file: string): Blob => {
    const b = findLocal(byPath, file);
    if (!b) throw new SourceError(`cannot read ${file}: not among the opened files`, 404);
    return b;
  };
  return {
    async read(file) {
      return new Uint8Array(await get(file).arrayBuffer());
    },
    blob(file): BlobLike {
      return get(file);
    },
  };
}
