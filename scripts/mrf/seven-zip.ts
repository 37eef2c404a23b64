/**
 * The 7-Zip binary of the `7zip-bin` package (p7zip 16.02 `7za` on Linux), run as a child process
 * to list and extract `.7z` archives (docs/converter.md, What it reads: containers). npm does not
 * keep the binary's executable bit (it is installed with mode 644) and node_modules is not ours to
 * change, so the binary is copied once into a cache directory under the system's temp dir, with
 * mode 755, and run from there.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { path7za } from '7zip-bin';
import { MrfReadError } from './types';

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/**
 * Copies the 7-Zip binary `source` (default: the `7zip-bin` package's for this platform and
 * architecture) into `<root>/compete-7za-<bytes>-<first 12 hex of its SHA-256>/` with mode 755 and
 * returns the copy's path. A copy already there is reused when its bytes are the package's; else it
 * is written again, to a temporary name then renamed, so a concurrent run never sees half a file.
 * The directory is made private (700) and refused when it is a symbolic link, another user's, or
 * writable by others: the binary it holds is run. A `source` that is not an absolute path (the
 * package gives `7za` when USE_SYSTEM_7ZA=true) is returned as is, to be found on the PATH, and so
 * is the package's `7za.exe` on Windows, which runs without an executable bit.
 * @throws Error when the package has no binary for this platform (`7zip-bin has no 7-Zip binary
 *   for linux/<arch> ...`) or the cache directory is unsafe or cannot be written.
 */
export async function installSevenZip(root: string = os.tmpdir(), source: string = path7za): Promise<string> {
  if (process.platform === 'win32' || !path.isAbsolute(source)) return source;
  let bin: Buffer;
  try {
    bin = await readFile(source);
  } catch (e) {
    throw new Error(`7zip-bin has no 7-Zip binary for ${process.platform}/${process.arch} (${source}: ${(e as Error).message}); .7z archives cannot be read`);
  }
  const hash = sha256(bin);
  const dir = path.join(root, `compete-7za-${bin.length}-${hash.slice(0, 12)}`);
  const target = path.join(dir, path.basename(source));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const d = await lstat(dir);
  const uid = process.getuid?.();
  if (!d.isDirectory() || (uid !== undefined && d.uid !== uid) || (d.mode & 0o022) !== 0) {
    throw new Error(`unsafe 7-Zip cache directory ${dir} (a link, another user's, or writable by others)`);
  }
  const found = await stat(target).then((s) => s, () => null);
  if (found?.isFile() && (found.mode & 0o111) !== 0 && sha256(await readFile(target)) === hash) return target;
  const temp = path.join(dir, `.${path.basename(source)}.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temp, bin, { mode: 0o755 });
    // the umask may have taken bits off the mode writeFile asked for
    await chmod(temp, 0o755);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
  return target;
}

let installed: Promise<string> | undefined;

/**
 * Path of the runnable 7-Zip binary: installSevenZip() under the system's temp dir, done once per
 * process (later calls give the same path); a failed install is tried again on the next call.
 * @throws Error as installSevenZip.
 */
export function sevenZipBinary(): Promise<string> {
  installed ??= installSevenZip().catch((e: unknown) => {
    installed = undefined;
    throw e;
  });
  return installed;
}

/** One entry of a 7z archive as `7za l -slt` lists it. */
export interface SevenZipEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  /** Bytes once extracted (0 for a folder). */
  size: number;
  folder: boolean;
  encrypted: boolean;
}

/** A running 7za: its stdout, and its end with what it wrote on stderr (the first 64 KiB). */
interface Run {
  stdout: Readable;
  /** Resolves once the process has exited and its pipes are closed; rejects when it cannot start. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(): void;
}

const STDERR_KEPT = 64 << 10;

function run7za(bin: string, cwd: string, args: string[]): Run {
  // no shell; stdin closed, so 7za never waits on a question (a password, an overwrite)
  const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  const err: Buffer[] = [];
  let errBytes = 0;
  child.stderr.on('data', (c: Buffer) => {
    if (errBytes < STDERR_KEPT) err.push(c);
    errBytes += c.length;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stderr: Buffer.concat(err).toString('utf8') }));
  });
  // a start failure is read through `done`; never an unhandled rejection when the caller stopped early
  done.catch(() => {});
  return {
    stdout: child.stdout,
    done,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      // 'close' waits for the pipes to end: output nobody reads would hold it back
      child.stdout.destroy();
      child.stderr.destroy();
    },
  };
}

/**
 * What 7za said on stderr, in one line: its messages without the `ERROR:` prefixes, the headings
 * and the names it repeats (`names`: the archive's, the entry's), e.g. `Can not open the file as
 * [7z] archive; Unexpected end of archive`; its exit code or signal when it said nothing.
 */
function stderrSummary(stderr: string, names: string[], code: number | null, signal: NodeJS.Signals | null): string {
  const lines: string[] = [];
  for (const raw of stderr.split(/\r?\n/)) {
    let line = raw.trim().replace(/^(Open )?(ERROR|WARNING)S?:\s*/i, '');
    for (const name of names) {
      if (line.startsWith(`${name} : `)) line = line.slice(name.length + 3);
      if (line.endsWith(` : ${name}`)) line = line.slice(0, -name.length - 3);
    }
    if (line === '' || names.includes(line) || /^(ERRORS|WARNINGS):?$/i.test(line)) continue;
    if (!lines.includes(line)) lines.push(line);
  }
  const text = lines.join('; ').slice(0, 500);
  if (text) return text;
  return signal ? `7za killed by ${signal}` : `7za exit code ${code}`;
}

/**
 * A 7z archive on disk, read with 7za: `list()` its entries, `extract()` one entry as a stream,
 * `close()` to end what is still running. Errors name `file` (the archive as the user named it).
 */
export interface SevenZipFile {
  /**
   * The entries, in the archive's order (`7za l -slt -ba`).
   * @throws MrfReadError (offset 0) `corrupt 7z archive (<7za's message>)` for a truncated or corrupt
   *   archive, `encrypted 7z archive (...)` for one whose list of entries is encrypted, `cannot run
   *   7-Zip (...)` when the binary cannot be installed or run.
   */
  list(): Promise<SevenZipEntry[]>;
  /**
   * The bytes of `entry` as extracted (`7za e -so`), streamed from the child's stdout, never held
   * whole. Stopping early (`return()`) kills the child.
   * @throws MrfReadError (offset 0, whatever was yielded before): `7z entry <name> is encrypted`,
   *   `corrupt 7z archive (entry <name>: <7za's message>)` when 7za fails or the bytes extracted
   *   are not the size listed, `7z archive closed while entry <name> was read` after close().
   */
  extract(entry: SevenZipEntry): AsyncGenerator<Buffer>;
  /** Kills the extractions still running and waits for their exit; their readers then fail (`7z archive closed while ...`). */
  close(): Promise<void>;
}

/**
 * Opens the 7z archive at `archivePath` (its stored bytes already on disk: a 7z's headers sit at
 * its end, so it cannot be read as it streams). 7za runs in the archive's directory and is given
 * its base name and the entry through a UTF-8 list file there (`-scsUTF-8 @list`), so neither
 * depends on the locale's charset (in the C locale 7za finds no entry named `plän.json` on its
 * command line); `-spd` takes names literally (no wildcards), `-t7z` reads the file as 7z only and
 * `-p` (an empty password) stops it from asking for one.
 */
export function openSevenZipFile(file: string, archivePath: string): SevenZipFile {
  const cwd = path.dirname(archivePath);
  const archive = path.basename(archivePath);
  const running = new Set<Run>();
  let lists = 0;
  let closed = false;

  async function start(args: string[]): Promise<Run> {
    let bin: string;
    try {
      bin = await sevenZipBinary();
    } catch (e) {
      throw new MrfReadError(file, 0, `cannot run 7-Zip (${(e as Error).message})`);
    }
    const r = run7za(bin, cwd, args);
    running.add(r);
    void r.done.then(() => running.delete(r), () => running.delete(r));
    return r;
  }

  /**
   * Waits for `r` to exit; throws when it failed: `corrupt 7z archive (...)`, or `encrypted 7z
   * archive (...)` when 7za could not read it for want of a password; `entry` prefixes the reason.
   */
  async function ended(r: Run, entry?: string): Promise<void> {
    let end: Awaited<Run['done']>;
    try {
      end = await r.done;
    } catch (e) {
      throw new MrfReadError(file, 0, `cannot run 7-Zip (${(e as Error).message})`);
    }
    if (end.code !== 0 || /\bERROR\b/i.test(end.stderr)) {
      const said = stderrSummary(end.stderr, entry === undefined ? [archive] : [archive, entry], end.code, end.signal);
      const what = /encrypted|password/i.test(said) ? 'encrypted' : 'corrupt';
      throw new MrfReadError(file, 0, `${what} 7z archive (${entry === undefined ? '' : `entry ${entry}: `}${said})`);
    }
  }

  return {
    async list() {
      const r = await start(['l', '-slt', '-ba', '-sccUTF-8', '-p', '-t7z', '--', archive]);
      const out: Buffer[] = [];
      for await (const c of r.stdout as AsyncIterable<Buffer>) out.push(c);
      await ended(r);
      return parseListing(Buffer.concat(out).toString('utf8'));
    },

    async *extract(entry) {
      if (entry.encrypted) throw new MrfReadError(file, 0, `7z entry ${entry.name} is encrypted`);
      const list = path.join(cwd, `entry-${++lists}.txt`);
      await writeFile(list, `${entry.name}\n`);
      let r: Run | undefined;
      let exited = false;
      try {
        r = await start(['e', '-so', '-spd', '-bd', '-scsUTF-8', '-p', '-t7z', '--', archive, `@${path.basename(list)}`]);
        let bytes = 0;
        try {
          for await (const c of r.stdout as AsyncIterable<Buffer>) {
            bytes += c.length;
            yield c;
          }
        } catch (e) {
          // the pipe broke (close() ended the extraction, or 7za died): say why
          if (closed) throw new MrfReadError(file, 0, `7z archive closed while entry ${entry.name} was read`);
          await ended(r, entry.name);
          throw new MrfReadError(file, 0, `corrupt 7z archive (entry ${entry.name}: ${(e as Error).message})`);
        }
        await ended(r, entry.name);
        exited = true;
        // 7za exits 0 having written nothing when no entry has the name
        if (bytes !== entry.size) throw new MrfReadError(file, 0, `corrupt 7z archive (entry ${entry.name}: ${bytes} bytes extracted, ${entry.size} listed)`);
      } finally {
        if (r && !exited) {
          r.kill();
          await r.done.catch(() => {});
        }
        await rm(list, { force: true });
      }
    },

    async close() {
      closed = true;
      const all = [...running];
      for (const r of all) r.kill();
      await Promise.all(all.map((r) => r.done.catch(() => {})));
    },
  };
}

/**
 * The entries of a `7za l -slt -ba` listing: blocks of `Key = value` lines, each opened by its
 * `Path = `. A folder is `Folder = +` or an `Attributes` value whose Windows part has `D` (p7zip
 * 16.02 writes `D_ drwxr-xr-x`, later versions `D....`) or whose Unix part starts with `d`.
 */
export function parseListing(text: string): SevenZipEntry[] {
  const entries: SevenZipEntry[] = [];
  let cur: SevenZipEntry | undefined;
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf(' = ');
    const key = eq < 0 ? line.trim().replace(/ =$/, '') : line.slice(0, eq);
    const value = eq < 0 ? '' : line.slice(eq + 3);
    if (key === 'Path') {
      cur = { name: value, size: 0, folder: false, encrypted: false };
      entries.push(cur);
    } else if (!cur) {
      continue;
    } else if (key === 'Size') {
      cur.size = Number(value) || 0;
    } else if (key === 'Folder') {
      cur.folder ||= value === '+';
    } else if (key === 'Attributes') {
      const [windows = '', unix = ''] = value.split(' ');
      cur.folder ||= /D/.test(windows.split('_')[0] ?? '') || unix.startsWith('d');
    } else if (key === 'Encrypted') {
      cur.encrypted = value === '+';
    }
  }
  return entries;
}
