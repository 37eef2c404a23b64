/**
 * Atomic replacement of an output directory (contracts.md §2): the new content is written in a
 * temporary sibling directory, then swapped in by renames, so a failed or killed run leaves the
 * previous dataset untouched.
 */
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Creates a fresh temporary directory next to `outDir` (same file system, so rename is atomic). */
export async function makeTempSibling(outDir: string): Promise<string> {
  const abs = path.resolve(outDir);
  await mkdir(path.dirname(abs), { recursive: true });
  return mkdtemp(path.join(path.dirname(abs), `.${path.basename(abs)}.tmp-`));
}

/**
 * Moves `tmpDir` into place as `outDir`, replacing what was there.
 * @throws when a rename fails; the previous `outDir` is restored if it had been moved aside.
 */
export async function swapIntoPlace(tmpDir: string, outDir: string): Promise<void> {
  const abs = path.resolve(outDir);
  const exists = await stat(abs).then(() => true, () => false);
  const old = `${path.join(path.dirname(abs), `.${path.basename(abs)}.old-`)}${process.pid}-${Date.now()}`;
  if (exists) await rename(abs, old);
  try {
    await rename(tmpDir, abs);
  } catch (e) {
    if (exists) await rename(old, abs);
    throw e;
  }
  if (exists) await rm(old, { recursive: true, force: true });
}
