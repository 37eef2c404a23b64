/**
 * Shared helpers of the bad-input tests (test/bad-input/*.test.ts): a temporary workspace with a
 * tiny valid in-network file and its catalog, the converter's command line run in-process
 * (`runConvertCli`) or as the real process (`node --import tsx scripts/convert/cli/convert.ts`), a hash of
 * a whole directory tree (names and bytes) to prove a dataset unchanged, and the converter's
 * leftovers (`.<out>.tmp-*`, `.<out>.old-*`) beside an output. Everything is generated at test
 * time under the OS temporary directory; nothing here is committed data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdtemp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConvertCli } from '../../scripts/convert/cli/convert';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = path.join(ROOT, 'scripts/convert/cli/convert.ts');

export const price = (rate: string, type = 'negotiated'): string =>
  `{"negotiated_type":"${type}","negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}`;
export const item = (code: string, prices: string, refs = '[1]'): string =>
  `{"negotiation_arrangement":"ffs","name":"S","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":${code},"description":"d",` +
  `"negotiated_rates":[{"provider_references":${refs},"negotiated_prices":[${prices}]}]}`;
const GROUP = '{"provider_group_id":1,"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]}';
/** The header of an in-network file, up to and including the comma before `provider_references`. */
export const HEADER = '{"reporting_entity_name":"Bad Input Plan","reporting_entity_type":"issuer","last_updated_on":"2025-07-01","version":"1.0.0",';
/** The rest of an in-network file after HEADER: one group, a valid 99213 item, then `items`. */
export const body = (items: string[] = []): string =>
  `"provider_references":[${GROUP}],"in_network":[${[item('"99213"', price('100')), ...items].join(',\n')}]}`;
/** A small valid in-network file: a valid 99213 item first, then `items`. */
export const mrf = (items: string[] = []): string => HEADER + body(items);

export interface Workspace {
  /** The temporary directory holding everything. */
  dir: string;
  /** `<dir>/catalog.json`: insurer `good` with `good.json`. */
  catalog: string;
  /** `<dir>/dataset`, not yet written. */
  out: string;
}

/** A fresh workspace: `good.json` (mrf()) and `catalog.json` naming it; the dataset is not written. */
export async function makeWorkspace(prefix: string): Promise<Workspace> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `compete-${prefix}-`));
  await writeFile(path.join(dir, 'good.json'), mrf());
  const catalog = path.join(dir, 'catalog.json');
  await writeFile(catalog, JSON.stringify(catalogOf(['good.json'])));
  return { dir, catalog, out: path.join(dir, 'dataset') };
}

/** A catalog whose reference insurer `good` has `good.json`, plus an insurer `bad` with `badFiles` (urls). */
export function catalogOf(goodFiles: string[], badFiles: string[] = [], extra: object = {}): object {
  return {
    reference_insurer: 'good',
    insurers: [
      { id: 'good', name: 'Good', files: goodFiles.map((url) => ({ url })) },
      ...(badFiles.length ? [{ id: 'bad', name: 'Bad', files: badFiles.map((url) => ({ url })) }] : []),
    ],
    ...extra,
  };
}

export interface CliRun {
  code: number;
  stderr: string;
}

/** Runs the command line in-process with `--quiet --jobs 1` added; returns the exit code and stderr. */
export async function runCli(args: string[]): Promise<CliRun> {
  let stderr = '';
  const code = await runConvertCli([...args, '--quiet', '--jobs', '1'], (t) => void (stderr += t));
  return { code, stderr };
}

export interface CliProcess {
  child: ChildProcess;
  /** Settles when the process has exited: its code (null when killed by a signal), the signal, stderr. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts the real command line process (`node --import tsx scripts/convert/cli/convert.ts <args>`). */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  return { child, done };
}

/** Runs the real command line process to its end. */
export const cliProcess = (args: string[]): CliProcess['done'] => spawnCli(args).done;

/**
 * Every entry under `dir` (relative path, `/`-separated): a directory as `dir`, a file as the
 * SHA-256 of its bytes, a symbolic link as `-> target`; sorted, so two trees compare with toEqual.
 */
export async function treeHash(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const name of (await readdir(path.join(dir, rel))).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(dir, r);
      const st = await lstat(abs);
      if (st.isSymbolicLink()) out[r] = `-> ${await readlink(abs)}`;
      else if (st.isDirectory()) {
        out[r] = 'dir';
        await walk(r);
      } else out[r] = createHash('sha256').update(await readFile(abs)).digest('hex');
    }
  };
  await walk('');
  return out;
}

/** The converter's temporary or set-aside directories beside `out` (`.<name>.tmp-*`, `.<name>.old-*`). */
export async function leftovers(out: string): Promise<string[]> {
  const base = path.basename(out);
  return (await readdir(path.dirname(out))).filter((f) => f.startsWith(`.${base}.tmp-`) || f.startsWith(`.${base}.old-`)).sort();
}

/** Resolves when `test()` holds (polled every `everyMs`); rejects after `timeoutMs`. */
export async function waitFor(what: string, test: () => Promise<boolean> | boolean, timeoutMs = 30_000, everyMs = 10): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The escaped form of `s` for a RegExp. */
export const re = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
