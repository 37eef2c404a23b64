/**
 * Global setup of the end-to-end run: builds the app once (Vite build API) into a temporary
 * directory, converts the hand-made fixture catalog (test/fixtures/e2e) and the live screens' fixture
 * (live-fixture.ts) with the real converter,
 * starts the real server on a free port, and hands its URL to the tests (`inject('baseUrl')`).
 * The teardown of the last project stops the server and deletes the temporary directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { convertCatalog } from '../../scripts/convert/index';
import { PROJECT_ROOT, buildApp } from '../../scripts/server/build-app';
import { startServer } from '../../scripts/server/index';
import { oncePerRun } from '../once-per-run';
import { convertLiveFixture } from './live-fixture';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the server under test, ending in '/'. */
    baseUrl: string;
    /** The built app (for tests that start a server of their own, e.g. auth-oidc.e2e.ts). */
    distDir: string;
    /** The converted fixture dataset. */
    dataDir: string;
    /** The live screens' fixture converted (live-fixture.ts), served by serveLiveFixture without a variant. */
    liveDataDir: string;
  }
}

/** The fixture catalog (expected figures in test/fixtures/e2e/README.md). */
export const E2E_CATALOG = join(PROJECT_ROOT, 'test/fixtures/e2e/catalog.json');

/** What the run's end-to-end files share: the server's URL, the build and the dataset. */
interface Served {
  baseUrl: string;
  distDir: string;
  dataDir: string;
  liveDataDir: string;
  /** Stops the server and deletes the temporary directory. */
  stop(): Promise<void>;
}

/** Builds, converts and serves; on a failure undoes what was done and throws. */
async function serve(): Promise<Served> {
  const root = await mkdtemp(join(tmpdir(), 'compete-e2e-'));
  const cleanup: Array<() => Promise<void>> = [() => rm(root, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of cleanup.reverse()) await step().catch((e: unknown) => console.error('e2e teardown:', e));
  };
  try {
    const t0 = Date.now();
    const { outDir } = await buildApp(join(root, 'dist'), { reusePrebuilt: true });
    const t1 = Date.now();
    const { outDir: dataDir } = await convertCatalog(E2E_CATALOG, join(root, 'dataset'), { quiet: true });
    const liveDataDir = await convertLiveFixture(join(root, 'live'));
    const t2 = Date.now();
    const server = await startServer({ distDir: outDir, dataDir, port: 0, log: () => {} });
    cleanup.push(() => server.close());
    console.log(`e2e: built in ${t1 - t0} ms, converted in ${t2 - t1} ms, serving at ${server.url}`);
    return { baseUrl: server.url, distDir: outDir, dataDir, liveDataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Called once per project (vitest.e2e.config.ts): the projects share one server (test/once-per-run.ts). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value: served, teardown } = await oncePerRun('e2e-setup', serve, (s) => s.stop());
  project.provide('baseUrl', served.baseUrl);
  project.provide('distDir', served.distDir);
  project.provide('dataDir', served.dataDir);
  project.provide('liveDataDir', served.liveDataDir);
  return teardown;
}
