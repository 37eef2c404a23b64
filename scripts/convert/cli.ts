/**
 * `npm run convert -- --catalog <catalog.json> --out <dataset-dir> [--jobs N] [--quiet]`
 * (contracts.md §2). Exit 0 when the dataset was written; otherwise 1 with a one-line reason.
 */
import { Command } from 'commander';
import { convertCatalog } from './index';

const program = new Command()
  .name('convert')
  .description('Convert Transparency in Coverage in-network files named by a catalog into a Compete dataset')
  .requiredOption('--catalog <file>', 'catalog JSON (contracts.md §1)')
  .requiredOption('--out <dir>', 'dataset directory to write (replaced atomically)')
  .option('--jobs <n>', 'parser threads (default: the number of cores)')
  .option('--quiet', 'no progress and no per-file lines')
  .parse();

const opts = program.opts<{ catalog: string; out: string; jobs?: string; quiet?: boolean }>();
const jobs = opts.jobs === undefined ? undefined : Number(opts.jobs);
if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1)) {
  process.stderr.write(`convert: invalid --jobs: ${opts.jobs}\n`);
  process.exit(1);
}
try {
  await convertCatalog(opts.catalog, opts.out, { quiet: opts.quiet === true, jobs });
} catch (e) {
  process.stderr.write(`convert: ${((e as Error).message ?? String(e)).split('\n')[0]}\n`);
  process.exit(1);
}
