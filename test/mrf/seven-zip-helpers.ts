/**
 * 7z archives packed at test time with the 7-Zip binary the converter runs (scripts/mrf/seven-zip.ts
 * sevenZipBinary): no 7z writer is hand-written, 7za's own output is the real shape.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sevenZipBinary } from '../../scripts/mrf/seven-zip';

const run = promisify(execFile);

/** One file of a 7z archive built by build7z; `name` may hold `/` (stored as a path). */
export interface SevenZipInput {
  name: string;
  data: Buffer;
}

/**
 * The bytes of a 7z archive of `entries`, packed by `7za a -t7z [switches] <archive> <names...>` in
 * a scratch directory under `tmp` (deleted after); 7za picks the order of the entries in the
 * archive (it sorts them by extension, then name). `switches` add 7za options, e.g. `-psecret` to
 * encrypt the entries.
 */
export async function build7z(tmp: string, entries: SevenZipInput[], switches: string[] = []): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmp, 'pack-7z-'));
  try {
    for (const e of entries) {
      await mkdir(path.dirname(path.join(dir, 'files', e.name)), { recursive: true });
      await writeFile(path.join(dir, 'files', e.name), e.data);
    }
    await run(await sevenZipBinary(), ['a', '-t7z', '-bd', ...switches, '--', path.join(dir, 'out.7z'), ...entries.map((e) => e.name)], { cwd: path.join(dir, 'files') });
    return await readFile(path.join(dir, 'out.7z'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
