/**
 * Benchmark (run by `npm run bench`): the app's screens as a user meets them, in Debian's Chromium
 * (headless, playwright-core), the dataset served by the project's own server (scripts/server).
 * Per dataset:
 * - each live route opened from its URL (bench/screens-routes.ts), on a fresh profile and again in
 *   the same profile: navigation to first content and to complete (no loading indicator left
 *   anywhere, the route's content present, held 200 ms: bench/screens-probe.ts), the bytes the
 *   page and its worker received until complete, the main thread's longest task until then, and
 *   the data worker's memory at completion (JS heap used + WebAssembly memories,
 *   bench/screens-worker.ts);
 * - a scripted session on the loaded screens (bench/screens-session.ts), each step timed in the
 *   page from its input event to the settled answer, over `--passes` passes (5): p50 and p95.
 * Targets: first content < 1500 ms, complete < 2500 ms, step p95 < 300 ms, no task > 200 ms,
 * bytes before complete < 5 MB, worker memory < 1 GB; a missed one is marked `!`. The exit code
 * is 0 when targets are missed (the figures say it), 1 only when something could not be measured
 * (a control not found, a route or step not settled within 60 s).
 * Options: `--shape <name>` (repeatable or a comma list: sample, real-file, market-year; default
 * all three), `--passes <n>`. Tiny mode (bench/tiny.ts): the tiny real-file shape, 1 pass,
 * no URL variant of the comparison, and a second visit of the first two routes only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../scripts/server/build-app';
import { startServer } from '../scripts/server/index';
import { closeBrowsers, launchBrowser, signInDevelopment, type Browser } from '../test/e2e/browser';
import { routeUrl } from '../test/e2e/screens-helpers';
import { prepareDataset, SHAPES, type ShapeName } from './screens-dataset';
import { probeScript } from './screens-probe';
import { printRoutes, printSteps, type RouteRow } from './screens-report';
import { datasetFacts, routesOf } from './screens-routes';
import { runSession, sessionScreens, type StepTimes } from './screens-session';
import { visit, type VisitLimits } from './screens-visit';
import { benchArgs, numberArg, sized, TINY } from './tiny';

/**
 * A route or a step not settled within this is a failure to measure, ms. Tiny mode runs beside
 * every other benchmark on two cores (test/bench/tiny.test.ts), where a route waits its turn.
 */
const TIMEOUT_MS = sized(60_000, 300_000);
const LIMITS: VisitLimits = { timeoutMs: TIMEOUT_MS, quietMs: sized(1500, 300) };

/** The shapes asked for by `--shape` (repeatable, or a comma list). @throws on an unknown name. */
function shapesArg(): ShapeName[] {
  const args = benchArgs();
  const names = args.flatMap((a, i) => (a === '--shape' && i + 1 < args.length ? args[i + 1]!.split(',') : [])).map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) return TINY ? ['real-file'] : ['sample', 'real-file', 'market-year'];
  for (const n of names) if (!(SHAPES as readonly string[]).includes(n)) throw new Error(`--shape: unknown shape '${n}' (one of ${SHAPES.join(', ')})`);
  return [...new Set(names)] as ShapeName[];
}

/** A browser on a fresh profile, signed in without loading a page (the token stored by an init script). */
async function signedIn(baseUrl: string): Promise<Browser> {
  const browser = await launchBrowser({ liftoffOnly: TINY });
  try {
    const token = await signInDevelopment(browser.context, baseUrl);
    await browser.context.addInitScript(`localStorage.setItem('access_token', ${JSON.stringify(token)});`);
    return browser;
  } catch (e) {
    await browser.close();
    throw e;
  }
}

async function benchDataset(label: string, distDir: string, dataDir: string, passes: number): Promise<void> {
  const server = await startServer({ distDir, dataDir, port: 0, log: () => {} });
  try {
    // one request before the visits: the server's own first-request start is not the page's
    await (await fetch(server.url)).text();
    console.log(`\n${label}`);
    // the facts the URLs name, read in a browser of its own (the measured profiles start empty)
    const setup = await signedIn(server.url);
    const facts = await (async () => {
      try {
        await setup.page.goto(routeUrl(server.url, '/dataset'));
        return await datasetFacts(setup.page);
      } finally {
        await setup.close();
      }
    })();
    console.log(`  service ${facts.service}, provider ${facts.provider}, insurer ${facts.insurer}, category ${facts.category ?? '(none)'}`);

    const rows: RouteRow[] = [];
    // tiny mode: no variant of a route, and a second visit of the first two routes only (seconds matter in CI)
    for (const [i, route] of routesOf(facts).filter((r) => !(TINY && r.variant)).entries()) {
      const browser = await signedIn(server.url);
      try {
        const url = routeUrl(server.url, route.path);
        const first = await visit(browser, url, route.watch, LIMITS);
        const second = TINY && i >= 2 ? null : await visit(browser, url, route.watch, LIMITS);
        rows.push({ label: route.label, first, second });
      } finally {
        await browser.close();
      }
    }
    printRoutes(rows);

    const browser = await signedIn(server.url);
    const steps: StepTimes[] = [];
    try {
      await browser.context.addInitScript(probeScript());
      const page = await browser.context.newPage();
      for (const screen of sessionScreens(facts)) steps.push(...await runSession(page, server.url, screen, passes, TIMEOUT_MS));
    } finally {
      await browser.close();
    }
    printSteps(steps, passes);
  } finally {
    await server.close();
  }
}

const shapes = shapesArg();
const passes = sized(numberArg('--passes', 5), 1);
const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-screens-'));
try {
  const t = performance.now();
  const { outDir: distDir } = await buildApp(path.join(tmp, 'dist'), { reusePrebuilt: TINY });
  console.log(`(app built in ${((performance.now() - t) / 1000).toFixed(0)} s; ${passes} pass(es) of the session; ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)})`);
  if (TINY) console.log('tiny mode: the tiny real-file shape unless --shape says otherwise, 1 pass');
  for (const shape of shapes) {
    const dataset = await prepareDataset(shape, path.join(tmp, shape), TINY);
    await benchDataset(dataset.label, distDir, dataset.dir, passes);
  }
} catch (e) {
  console.error(`screens: failed to measure: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeBrowsers();
  await rm(tmp, { recursive: true, force: true });
}
