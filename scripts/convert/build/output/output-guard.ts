/**
 * What the converter may replace with a dataset (`--out`, docs/converter.md): a path that is absent,
 * an empty directory, or a dataset it wrote (`manifest.json` parses and has `"format":
 * "compete-dataset"`, contract/files/dataset.ts), and never one of its inputs. The swap of atomic-dir.ts
 * replaces `--out` whole, so without this check `--out ~/thesis` would delete a folder of someone's
 * files and `--out catalog.json` the catalog. Checked before any source is read, after the stale
 * directories of earlier runs are recovered (atomic-dir.ts recoverStale: a set-aside dataset put
 * back is then accepted as ours).
 *
 * An input is the catalog file or a local file it names (`npi_registry`, `claims_volume`,
 * `services`, `filters.billing_codes` as a path, every `url` and `table_of_contents`; http(s) URLs
 * are not on disk) or, once tables of contents are read, a local in-network file one lists.
 * Paths are compared by real path where they exist (a symbolic link to the catalog's folder is the
 * catalog's folder); `--out` that is a link to a dataset directory is replaced where the link points.
 * A refusal is an OutputRefused, one line naming `--out` as given and why
 * (`--out ~/thesis: a directory that is not a Compete dataset (no manifest.json); refusing to replace it`).
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog } from '../../../../contract/files/catalog';
import { notADataset, recoverStale } from '../../common/atomic-dir';
import { isHttpUrl, kindOf, localInputs, resolveLocation } from '../../plan/catalog';
import type { PlannedFile } from '../../plan/plan-files';

/** `--out` may not be written; the message is one line naming the path and why. */
export class OutputRefused extends Error {
  override name = 'OutputRefused';
}

/** A local input: the catalog field that names it, and its absolute path. */
export interface LocalInput {
  /** `catalog`, `npi_registry`, `insurers[0].files[1].url`, ..., `a file listed by table of contents <toc>`. */
  field: string;
  file: string;
}

/** The catalog file and the local files it names, by field (`baseDir`: the catalog's directory). */
export function catalogInputs(catalogPath: string, catalog: Catalog, baseDir: string): LocalInput[] {
  const named: Array<[string, string | undefined]> = localInputs(catalog);
  catalog.insurers.forEach((ins, i) => ins.files.forEach((f, j) => {
    named.push([`insurers[${i}].files[${j}].url`, f.url], [`insurers[${i}].files[${j}].table_of_contents`, f.table_of_contents]);
  }));
  const inputs: LocalInput[] = [{ field: 'catalog', file: path.resolve(catalogPath) }];
  for (const [field, value] of named) {
    if (value && !isHttpUrl(value)) inputs.push({ field, file: resolveLocation(baseDir, value) });
  }
  return inputs;
}

/** The local in-network files that tables of contents list (those the catalog names are catalogInputs'). */
export function listedInputs(files: readonly PlannedFile[]): LocalInput[] {
  return files.filter((f) => f.tableOfContents !== undefined && !isHttpUrl(f.location))
    .map((f) => ({ field: `a file listed by table of contents ${f.tableOfContents}`, file: f.location }));
}

/**
 * Prepares `outDir` for a run on the catalog at `catalogPath`: recovers the stale directories of
 * earlier runs beside it, then checks that it may be replaced.
 * @returns the directory to write: the real path of `outDir` when it exists (a link's target),
 *   else `outDir` resolved.
 * @throws OutputRefused naming `outDir`: it is or holds an input, is a file, a directory that is
 *   not empty and not a Compete dataset, or a dangling link; Error when the stale directories of
 *   an earlier run cannot be removed.
 */
export async function prepareOutput(outDir: string, catalogPath: string, catalog: Catalog, baseDir: string): Promise<string> {
  const target = await realOrResolved(outDir);
  await recoverStale(target);
  await assertNoInput(outDir, target, catalogInputs(catalogPath, catalog, baseDir));
  await assertReplaceable(outDir, target);
  return target;
}

/**
 * Refuses `outDir` (real path `target`) when it is one of `inputs` or a directory above one.
 * @throws OutputRefused `--out <outDir>: holds npi_registry <file>; refusing to replace an input`.
 */
export async function assertNoInput(outDir: string, target: string, inputs: LocalInput[]): Promise<void> {
  for (const { field, file } of inputs) {
    const rel = path.relative(target, await realOrResolved(file));
    const what = field === 'catalog' ? `the catalog ${file}` : `${field} ${file}`;
    if (rel === '') {
      throw new OutputRefused(`--out ${outDir}: ${field === 'catalog' ? 'the catalog' : `the input ${field} ${file}`} itself; refusing to replace an input`);
    }
    if (!path.isAbsolute(rel) && rel.split(path.sep)[0] !== '..') {
      throw new OutputRefused(`--out ${outDir}: holds ${what}; refusing to replace an input`);
    }
  }
}

/**
 * Refuses `outDir` (real path `target`) unless it is absent, an empty directory or a Compete dataset.
 * @throws OutputRefused `--out <outDir>: a file, not a dataset directory; refusing to replace it`,
 *   `... a directory that is not a Compete dataset (no manifest.json); ...`.
 */
async function assertReplaceable(outDir: string, target: string): Promise<void> {
  const refuse = (what: string): never => {
    throw new OutputRefused(`--out ${outDir}: ${what}; refusing to replace it`);
  };
  let st;
  try {
    st = await lstat(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    return refuse(`cannot inspect (${(e as Error).message})`);
  }
  if (st.isSymbolicLink()) return refuse('a symbolic link to a missing target');
  if (st.isFile()) return refuse('a file, not a dataset directory');
  if (!st.isDirectory()) return refuse(`${kindOf(st)}, not a dataset directory`);
  let entries: string[];
  try {
    entries = await readdir(target);
  } catch (e) {
    return refuse(`cannot inspect (${(e as Error).message})`);
  }
  if (entries.length === 0) return;
  const why = await notADataset(target);
  if (why) refuse(`a directory that is not a Compete dataset (${why})`);
}

/** The real path of `p`, or, when it does not exist, its nearest existing ancestor's real path joined with the rest. */
async function realOrResolved(p: string): Promise<string> {
  const abs = path.resolve(p);
  try {
    return await realpath(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(await realOrResolved(parent), path.basename(abs));
  }
}
