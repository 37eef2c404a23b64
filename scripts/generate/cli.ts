/**
 * `npm run generate -- --shape <sample|real-file|market-year> --out <dir> [--tiny]`: writes the
 * generated dataset of that shape (shapes.ts) into `--out`, which must be absent or empty. The
 * dataset is written in a temporary sibling directory and renamed into place at the end
 * (scripts/convert/common/atomic-dir.ts), so a failed or interrupted run leaves no partial dataset. Prints
 * one line: shape, rate rows, snapshots, seconds, bytes on disk. Exit 0 when written, otherwise 1
 * with a one-line reason on stderr (an unknown shape names the allowed ones; a non-empty `--out`
 * is named). SIGINT, SIGTERM and SIGHUP remove the temporary directory and exit 128 + the signal.
 */
import { Command, CommanderError } from 'commander';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { abandonSync, makeTempSibling, swapIntoPlace } from '../convert/common/atomic-dir';
import { isProgram } from '../convert/cli/options';
import { removeScratchSync } from './dataset';
import { GENERATED_SHAPES, generateShape, isGeneratedShape } from './shapes';

interface CliOptions {
  shape: string;
  out: string;
  tiny?: boolean;
}

/** Exit codes of the signals that end a run (128 + the signal's number). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Why `dir` cannot receive a generated dataset (it exists and is not an empty directory), or null.
 * @throws when `dir` exists but cannot be read.
 */
async function refusal(dir: string): Promise<string | null> {
  const s = await stat(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (s === null) return null;
  if (!s.isDirectory()) return `--out ${dir} exists and is not a directory`;
  return (await readdir(dir)).length > 0 ? `--out ${dir} is not empty (it must be absent or empty)` : null;
}

/** Total size in bytes of the files under `dir`. */
async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += (await stat(path.join(e.parentPath, e.name))).size;
  }
  return total;
}

/**
 * Runs the command line on `argv` (the arguments after the script name).
 * @param write where stdout's summary line goes; `writeErr` where errors go.
 * @returns the exit code: 0 when the dataset was written, 1 otherwise.
 */
export async function runGenerateCli(argv: string[], write: (text: string) => void = (t) => void process.stdout.write(t),
  writeErr: (text: string) => void = (t) => void process.stderr.write(t)): Promise<number> {
  const program = new Command()
    .name('generate')
    .description('Write a generated Compete dataset of a named shape (docs/benchmarks.md, Generated shapes)')
    .requiredOption('--shape <name>', `the dataset's shape: ${GENERATED_SHAPES.join(', ')}`)
    .requiredOption('--out <dir>', 'dataset directory to write; must be absent or empty')
    .option('--tiny', 'the shape at a size of seconds')
    .exitOverride()
    .configureOutput({ writeErr, writeOut: write });
  let opts: CliOptions;
  try {
    program.parse(argv, { from: 'user' });
    opts = program.opts<CliOptions>();
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    throw e;
  }
  const { shape, out } = opts;
  try {
    if (!isGeneratedShape(shape)) throw new Error(`unknown --shape '${shape}': one of ${GENERATED_SHAPES.join(', ')}`);
    const refused = await refusal(out);
    if (refused) throw new Error(refused);
    const t0 = performance.now();
    const tmp = await makeTempSibling(out);
    const manifest = await generateShape(shape, tmp, { tiny: opts.tiny === true });
    await swapIntoPlace(tmp, out);
    const seconds = (performance.now() - t0) / 1000;
    write(`generate: ${shape}${opts.tiny ? ' (tiny)' : ''} -> ${out}: ${manifest.counts.rate_rows} rate rows, `
      + `${manifest.snapshots.length} snapshots, ${seconds.toFixed(1)} s, ${await bytesUnder(out)} bytes\n`);
    return 0;
  } catch (e) {
    abandonSync();
    writeErr(`generate: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}\n`);
    return 1;
  }
}

if (isProgram(import.meta.url)) {
  for (const signal of Object.keys(SIGNAL_EXIT) as Array<keyof typeof SIGNAL_EXIT>) {
    process.once(signal, () => {
      abandonSync();
      removeScratchSync();
      process.stderr.write(`generate: interrupted by ${signal}; temporary directory removed\n`);
      process.exit(SIGNAL_EXIT[signal]);
    });
  }
  process.exit(await runGenerateCli(process.argv.slice(2)));
}
