/**
 * Atomic replacement of an output directory (docs/converter.md): the new content is written in a
 * temporary sibling directory, then swapped in by renames, so a failed or killed run leaves the
 * previous dataset untouched.
 *
 * Why the names: a run killed with SIGKILL (or a power cut) cannot clean up after itself, so what
 * it leaves must be recognisable by the next run. The temporary directory of a run is
 * `.<out>.tmp-compete-<pid>-<random>` beside `<out>`, holding a marker file (MARKER, written before
 * anything else, removed just before the swap, when the directory holds its `manifest.json`); the
 * previous dataset is set aside between the two renames of swapIntoPlace as
 * `.<out>.old-compete-<pid>-<ms>`. recoverStale, at the start of a run, removes such directories
 * whose process is gone, and puts a set-aside dataset back when `<out>` is missing.
 * abandonSync undoes the run's own directories when the process is interrupted (SIGINT, SIGTERM,
 * SIGHUP: scripts/convert/cli/convert.ts).
 */
import { lstatSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { writingTo } from './write-errors';
import path from 'node:path';
import { DATASET_FORMAT } from '../../../contract/files/dataset';

/** The marker file of a temporary directory: JSON `{ pid, host, boot, created_at }`. */
export const MARKER = '.compete-tmp';

/** This process's temporary directories not yet swapped in or removed (abandonSync). */
const live = new Map<string, string>();
/** A swap between its two renames: where the previous dataset was set aside. */
const swapping = new Map<string, string>();

/**
 * Creates a fresh temporary directory next to `outDir` (same file system, so rename is atomic),
 * `.<basename>.tmp-compete-<pid>-<random>`, with its MARKER file; its parent is created if missing.
 * @throws when the directory or its marker cannot be written (write-errors.ts WriteError naming the marker's path).
 */
export async function makeTempSibling(outDir: string): Promise<string> {
  const abs = path.resolve(outDir);
  await mkdir(path.dirname(abs), { recursive: true });
  const tmp = await mkdtemp(path.join(path.dirname(abs), `.${path.basename(abs)}.tmp-compete-${process.pid}-`));
  live.set(tmp, abs);
  try {
    const marker = { pid: process.pid, host: os.hostname(), boot: bootId(), created_at: new Date().toISOString() };
    const file = path.join(tmp, MARKER);
    await writingTo(file, () => writeFile(file, JSON.stringify(marker)));
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    live.delete(tmp);
    throw e;
  }
  return tmp;
}

/**
 * Moves `tmpDir` into place as `outDir`, replacing what was there: its MARKER is removed, the
 * previous `outDir` is renamed aside (`.<basename>.old-compete-<pid>-<ms>`), `tmpDir` renamed in,
 * the set-aside one removed.
 * @throws when a rename fails; the previous `outDir` is restored if it had been moved aside.
 */
export async function swapIntoPlace(tmpDir: string, outDir: string): Promise<void> {
  const abs = path.resolve(outDir);
  await rm(path.join(tmpDir, MARKER), { force: true });
  const exists = await lstat(abs).then(() => true, () => false);
  const old = path.join(path.dirname(abs), `.${path.basename(abs)}.old-compete-${process.pid}-${Date.now()}`);
  // noted first: a signal handled while the rename is under way still puts `old` back (abandonSync)
  if (exists) swapping.set(abs, old);
  try {
    if (exists) await rename(abs, old);
  } catch (e) {
    swapping.delete(abs);
    throw e;
  }
  try {
    await rename(tmpDir, abs);
    live.delete(tmpDir);
  } catch (e) {
    if (exists) await rename(old, abs);
    throw e;
  } finally {
    swapping.delete(abs);
  }
  if (exists) await rm(old, { recursive: true, force: true });
}

/**
 * Removes this process's temporary directories and puts back a previous dataset set aside by a
 * swap that had not renamed the new one in yet; synchronous, for a signal handler. Every step is
 * tried; what fails is left for the next run's recoverStale.
 * @returns the output directories concerned (left as they were before the run), for the message.
 * @throws the first error met, after all steps were tried.
 */
export function abandonSync(): string[] {
  const outs = new Set<string>();
  let failure: unknown = null;
  const attempt = (step: () => void): void => {
    try {
      step();
    } catch (e) {
      failure ??= e;
    }
  };
  for (const [abs, old] of swapping) {
    attempt(() => {
      if (!present(abs) && present(old)) renameSync(old, abs);
    });
    outs.add(abs);
  }
  for (const [tmp, abs] of live) {
    if (!present(tmp)) continue; // removed by the run's own failure path
    attempt(() => rmSync(tmp, { recursive: true, force: true, maxRetries: 3 }));
    outs.add(abs);
  }
  live.clear();
  swapping.clear();
  if (failure) throw failure as Error;
  return [...outs];
}

function present(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** What recoverStale did beside an output. */
export interface StaleRecovery {
  /** Directories removed (temporary ones, set-aside copies of a dataset now in place). */
  removed: string[];
  /** The set-aside dataset renamed back to the output, which was missing. */
  restored?: string;
}

/**
 * At the start of a run: removes the stale temporary (`.tmp-compete-`) and set-aside
 * (`.old-compete-`) directories of earlier runs beside `outDir`; when `outDir` is missing, the
 * newest set-aside dataset is renamed back to it instead (a run killed between the two renames of
 * swapIntoPlace). Only directories that are ours are touched: the name, a process id that is not
 * alive (on this host), and the content (a temporary directory holds its MARKER or a Compete
 * manifest, a set-aside one a Compete manifest; either may be empty). A concurrent run's
 * directories (live process) and anything else are left alone.
 * @throws when a directory that is ours cannot be removed or renamed back.
 */
export async function recoverStale(outDir: string): Promise<StaleRecovery> {
  const abs = path.resolve(outDir);
  const dir = path.dirname(abs);
  const prefix = `.${path.basename(abs)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const tmps: string[] = [];
  const olds: Array<{ p: string; ms: number }> = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(tmp|old)-compete-(\d+)-(.+)$/.exec(name.slice(prefix.length));
    if (!m) continue;
    const p = path.join(dir, name);
    const pid = Number(m[2]);
    if (m[1] === 'tmp' && (await staleTemp(p, pid))) tmps.push(p);
    if (m[1] === 'old' && !alive(pid) && (await isDatasetOrEmpty(p))) olds.push({ p, ms: Number(m[3]) });
  }
  const result: StaleRecovery = { removed: [] };
  if (olds.length > 0 && !(await lstat(abs).then(() => true, () => false))) {
    olds.sort((a, b) => b.ms - a.ms);
    await rename(olds[0]!.p, abs);
    result.restored = olds.shift()!.p;
  }
  for (const p of [...tmps, ...olds.map((o) => o.p)]) {
    await rm(p, { recursive: true, force: true });
    result.removed.push(p);
  }
  return result;
}

/** `p` is a temporary directory of a run (`pid`) that is gone. */
async function staleTemp(p: string, pid: number): Promise<boolean> {
  if (!(await isDir(p))) return false;
  const marker = await readFile(path.join(p, MARKER), 'utf8').then((t) => JSON.parse(t) as { pid?: unknown; host?: unknown; boot?: unknown } | null, () => null);
  if (marker) {
    if (marker.pid !== pid || (marker.host !== undefined && marker.host !== os.hostname())) return false;
    // written before the last boot: its process is gone even if another one has its pid now
    const boot = bootId();
    return (typeof marker.boot === 'string' && boot !== null && marker.boot !== boot) || !alive(pid);
  }
  return !alive(pid) && (await isDatasetOrEmpty(p));
}

/**
 * `p` is a directory (not a link) that is empty or holds a Compete dataset manifest; a MARKER
 * alone (unreadable: the run was killed while writing it) counts as empty.
 */
async function isDatasetOrEmpty(p: string): Promise<boolean> {
  if (!(await isDir(p))) return false;
  return (await readdir(p)).every((f) => f === MARKER) || (await notADataset(p)) === null;
}

/** A manifest.json larger than this is not a dataset's (it is not read). */
const MAX_MANIFEST_BYTES = 256 << 20;

/**
 * Why directory `dir` is not a dataset the converter wrote, or null when its `manifest.json` parses
 * with `"format": "compete-dataset"`: `no manifest.json`, `manifest.json is not JSON`,
 * `manifest.json format "x", not "compete-dataset"`, ...
 */
export async function notADataset(dir: string): Promise<string | null> {
  const manifest = path.join(dir, 'manifest.json');
  let text: string;
  try {
    const s = await stat(manifest);
    if (!s.isFile()) return 'manifest.json is not a file';
    if (s.size > MAX_MANIFEST_BYTES) return 'manifest.json is too large to be one';
    text = await readFile(manifest, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no manifest.json' : `manifest.json unreadable: ${(e as Error).message}`;
  }
  let format: unknown;
  try {
    format = (JSON.parse(text) as { format?: unknown } | null)?.format;
  } catch {
    return 'manifest.json is not JSON';
  }
  if (format === DATASET_FORMAT) return null;
  return `manifest.json format ${format === undefined ? 'missing' : JSON.stringify(format)}, not "${DATASET_FORMAT}"`;
}

async function isDir(p: string): Promise<boolean> {
  return lstat(p).then((s) => s.isDirectory(), () => false);
}

/** This boot of the machine (Linux), or null where the kernel does not say. */
function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Whether process `pid` lives (this process counts; EPERM means it lives under another user). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
