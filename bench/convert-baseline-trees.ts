/**
 * The source trees bench/convert-baseline.bench.ts compares: a commit of the project's git
 * repository materialised into a temp dir (`git archive <sha> | tar -x`, the project's node_modules
 * symlinked into it), or the work tree itself, uncommitted changes included. Each tree converts
 * with its own scripts/convert/cli/measure-convert.ts and its own runtime flags (runtime-flags.ts), in a
 * process of its own, so each figure is that version's as `npm run convert` would have run it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Measured } from './convert-process';

/** The project's root: the directory holding bench/. */
export const ROOT = path.resolve(import.meta.dirname, '..');

/** One version of the converter, ready to run. */
export interface Tree {
  /** `baseline`, `parent` or `current`. */
  label: string;
  /** The revision as given (`5a0c509`, `HEAD~1`), `work tree` for the current one. */
  rev: string;
  /** The commit's full hash; null for the work tree. */
  sha: string | null;
  /** The project's directory inside the tree (the tree's root plus the project's place in the repository). */
  dir: string;
  /** The tree's measure-convert.ts (its place differs between layouts: convertFile). */
  measure: string;
  /** Node flags and environment of the tree's runtime-flags.ts (none when the tree has no such file). */
  nodeFlags: readonly string[];
  env: Readonly<Record<string, string>>;
  /** Whether the tree's measure-convert.ts takes `--store <dir>` (older ones take `<catalog> <out> [jobs]` only). */
  takesStore: boolean;
  /** The temp dir to delete at the end; null for the work tree. */
  temp: string | null;
}

function git(args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim() };
}

/**
 * The full hash of commit `rev` of the project's repository, or null when the repository does not
 * hold it (a shallow clone). A revision starting with `-` would read as an option of git.
 * @throws Error when `rev` starts with `-`.
 */
export function resolveCommit(rev: string): string | null {
  if (rev.startsWith('-')) throw new Error(`revision '${rev}' starts with '-'`);
  const r = git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  return r.ok && /^[0-9a-f]{40}$/.test(r.out) ? r.out : null;
}

/** Resolves when `child` exits 0; rejects with its stderr otherwise. */
function exited(child: ReturnType<typeof spawn>, what: string): Promise<void> {
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code}): ${err.trim()}`))));
  });
}

/**
 * The file of `dir`'s tree that is at `now` (a path under scripts/convert/) in today's layout, or
 * at its place before the converter's folders by stage (scripts/convert/<file name>); null when neither.
 */
export function convertFile(dir: string, now: string): string | null {
  for (const p of [now, `scripts/convert/${path.basename(now)}`]) if (existsSync(path.join(dir, p))) return path.join(dir, p);
  return null;
}

/** The node flags and environment of `dir`'s scripts/convert/cli/runtime-flags.ts, imported from that tree. */
async function runtimeFlags(dir: string): Promise<{ nodeFlags: readonly string[]; env: Readonly<Record<string, string>> }> {
  const file = convertFile(dir, 'scripts/convert/cli/runtime-flags.ts');
  if (file === null) return { nodeFlags: [], env: {} };
  const m = (await import(pathToFileURL(file).href)) as { CONVERTER_NODE_FLAGS?: unknown; CONVERTER_ENV?: unknown };
  const flags = Array.isArray(m.CONVERTER_NODE_FLAGS) ? m.CONVERTER_NODE_FLAGS.filter((f): f is string => typeof f === 'string') : [];
  const env: Record<string, string> = {};
  if (m.CONVERTER_ENV && typeof m.CONVERTER_ENV === 'object') {
    for (const [k, v] of Object.entries(m.CONVERTER_ENV)) if (typeof v === 'string') env[k] = v;
  }
  return { nodeFlags: flags, env };
}

async function treeAt(label: string, rev: string, sha: string | null, dir: string, temp: string | null): Promise<Tree> {
  const measure = convertFile(dir, 'scripts/convert/cli/measure-convert.ts');
  if (measure === null) throw new Error(`${label} ${rev} has no scripts/convert/cli/measure-convert.ts`);
  const takesStore = readFileSync(measure, 'utf8').includes("'--store'");
  return { label, rev, sha, dir, measure, ...(await runtimeFlags(dir)), takesStore, temp };
}

/** The work tree itself as the `current` version. */
export function currentTree(): Promise<Tree> {
  return treeAt('current', 'work tree', null, ROOT, null);
}

/**
 * Commit `sha` written into a new temp dir (`git archive | tar -x`, both spawned without a shell),
 * with a symlink to the project's node_modules (an older commit's dependencies are a subset of
 * today's).
 * @throws Error with git's or tar's stderr when either fails.
 */
export async function materialise(label: string, rev: string, sha: string): Promise<Tree> {
  const temp = await mkdtemp(path.join(os.tmpdir(), `compete-bench-tree-${label}-`));
  try {
    const archive = spawn('git', ['archive', '--format=tar', sha], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const tar = spawn('tar', ['-x', '-C', temp], { stdio: ['pipe', 'ignore', 'pipe'] });
    archive.stdout!.pipe(tar.stdin!);
    await Promise.all([exited(archive, `git archive ${sha}`), exited(tar, 'tar -x')]);
    // the project may sit below the repository's root: its place in the tree is the same
    const prefix = git(['rev-parse', '--show-prefix']).out;
    const dir = path.join(temp, prefix);
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    return await treeAt(label, rev, sha, dir, temp);
  } catch (e) {
    await rm(temp, { recursive: true, force: true });
    throw e;
  }
}

/** Deletes a materialised tree (nothing for the work tree). */
export async function dropTree(t: Tree): Promise<void> {
  if (t.temp) await rm(t.temp, { recursive: true, force: true });
}

/**
 * Converts `catalog` into the fresh directory `out` with tree `t`'s measure-convert.ts, in a child
 * process started with the tree's runtime flags, its working directory the tree; the store is
 * `store` when the tree takes `--store`, else its default `<out>.store`. The output and both
 * possible stores are deleted afterwards, so every run starts from nothing.
 * @throws Error naming the version, with the child's stderr, when the conversion fails.
 */
export async function measureIn(t: Tree, catalog: string, out: string, store: string): Promise<Measured> {
  const args = [...t.nodeFlags, '--import', 'tsx', t.measure, catalog, out,
    ...(t.takesStore ? ['--store', store] : [])];
  try {
    const r = spawnSync(process.execPath, args, { cwd: t.dir, encoding: 'utf8', maxBuffer: 1 << 24, env: { ...process.env, ...t.env } });
    if (r.status !== 0) throw new Error(`${t.label} (${t.rev}) conversion failed: ${r.error?.message ?? r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measured;
  } finally {
    for (const d of [out, store, `${out}.store`]) await rm(d, { recursive: true, force: true });
  }
}
