/**
 * `npm run serve -- --data <dir> --dist <dir> --port <p> --host <h>`: serves a built app and a
 * dataset (scripts/server/index.ts) until interrupted; prints the URL.
 */
import { Command } from 'commander';
import { startServer } from './index';

const program = new Command()
  .name('serve')
  .description('Serve the built Compete app and a dataset')
  .option('--data <dir>', 'dataset directory (manifest.json + Parquet)', 'data/dataset')
  .option('--dist <dir>', 'built app directory', 'dist')
  .option('--port <port>', 'TCP port', '8080')
  .option('--host <host>', 'interface to listen on', '127.0.0.1')
  .parse();

const opts = program.opts<{ data: string; dist: string; port: string; host: string }>();
const port = Number(opts.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid port: ${opts.port}`);
  process.exit(2);
}
try {
  const server = await startServer({ distDir: opts.dist, dataDir: opts.data, port, host: opts.host });
  console.log(`Compete is running at ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
