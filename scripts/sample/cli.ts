/**
 * `npm run sample -- [--out <dir>]`: writes the embedded sample data set (default `data/sample`)
 * and prints one summary line. Exit 1 with a one-line reason on failure.
 */
import { Command } from 'commander';
import { generateSample } from './index';

const program = new Command()
  .name('sample')
  .description('Write the embedded Transparency in Coverage sample (catalog, MRFs, NPI registry, claims)')
  .option('--out <dir>', 'output directory', 'data/sample')
  .parse();

const { out } = program.opts<{ out: string }>();
const started = performance.now();
try {
  const r = await generateSample(out);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`sample: ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB in ${seconds} s -> ${r.catalogPath}`);
} catch (err) {
  console.error(`sample: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
