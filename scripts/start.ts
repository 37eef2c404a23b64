/**
 * `npm start` (docs/deployment.md, The server):
 *   npm start                                  sample data -> dataset -> build -> serve
 *   npm start -- --data <dataset-dir> [--port <p>] [--host <h>]   serve an existing dataset
 * Without --data: generates the sample (data/sample), converts it (data/dataset), builds the app
 * (dist/) and serves it. With --data: builds only when dist/ has no index.html (or --rebuild).
 * Prints one progress line per step, then the URL and the sign-in mode. Exits 1 with the reason
 * when a step fails.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { PROJECT_ROOT } from './server/project-root';
import { startServer } from './server/index';

// The sample generator, the converter (DuckDB's native client) and Vite load only when a step
// needs them: serving an existing dataset with a built app loads none of them.
const buildApp = async (outDir: string) => (await import('./server/build-app')).buildApp(outDir);

interface StartOptions {
  data?: string;
  port: string;
  host: string;
  rebuild?: boolean;
}

const program = new Command()
  .name('start')
  .description('Build and serve Compete (sample data unless --data is given)')
  .option('--data <dir>', 'serve this existing dataset directory instead of the sample')
  .option('--port <port>', 'TCP port', '8080')
  .option('--host <host>', 'interface to listen on', '127.0.0.1')
  .option('--rebuild', 'build the app even when dist/ exists')
  .parse();

/** True while a step's line waits for its end ('done in ...'). */
let midLine = false;

/** Runs `fn` after printing `label`, then prints how long it took (one line per step). */
async function step<T>(label: string, fn: () => Promise<T>, done: (r: T) => string = () => ''): Promise<T> {
  const t0 = Date.now();
  process.stdout.write(`${label} ... `);
  midLine = true;
  const result = await fn();
  midLine = false;
  const detail = done(result);
  process.stdout.write(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s${detail ? ` (${detail})` : ''}\n`);
  return result;
}

async function main(opts: StartOptions): Promise<void> {
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${opts.port}`);
  const distDir = resolve(PROJECT_ROOT, 'dist');
  let dataDir: string;
  if (opts.data) {
    dataDir = resolve(opts.data);
    if (!existsSync(resolve(dataDir, 'manifest.json'))) throw new Error(`not a dataset (no manifest.json): ${dataDir}`);
    if (opts.rebuild || !existsSync(resolve(distDir, 'index.html'))) {
      await step('Building the app into dist/', () => buildApp(distDir));
    }
  } else {
    const sampleDir = resolve(PROJECT_ROOT, 'data/sample');
    dataDir = resolve(PROJECT_ROOT, 'data/dataset');
    const { generateSample } = await import('./sample/index');
    const { convertCatalog } = await import('./convert/index');
    await step('Generating sample data in data/sample', () => generateSample(sampleDir), (r) =>
      `${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB`,
    );
    await step('Converting it into data/dataset', () =>
      convertCatalog(resolve(sampleDir, 'catalog.json'), dataDir, { quiet: true }),
      (r) => `${r.manifest.counts.rate_rows.toLocaleString('en-US')} rate rows`,
    );
    await step('Building the app into dist/', () => buildApp(distDir));
  }
  // The server's sign-in line is printed after the URL.
  const held: string[] = [];
  let log: (line: string) => void = (line) => void held.push(line);
  const server = await startServer({ distDir, dataDir, port, host: opts.host, log: (line) => log(line) });
  console.log(`Compete is running at ${server.url}`);
  held.forEach((line) => console.log(line));
  log = (line) => console.log(line);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(program.opts<StartOptions>()).catch((error: unknown) => {
  if (midLine) process.stdout.write('failed\n');
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
