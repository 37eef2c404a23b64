/**
 * Global setup of the unit run (vitest.config.ts): converts the api fixture's two shared variants
 * (test/worker/fixture-convert.ts SHARED_VARIANTS) once, with the converter under test, for the
 * many files that boot them (test/worker/fixture-dataset.ts convertFixture copies them); the
 * teardown returned to the last project deletes them.
 */
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { convertFixtureFresh, SHARED_VARIANTS, type SharedVariant } from './worker/fixture-convert';

type Converted = Array<{ root: string; dir: string }>;

/** The conversion every project of the run shares: vitest calls this setup once per project, in one process. */
interface Shared {
  converted: Promise<Converted>;
  projects: number;
}

const SHARED = Symbol.for('compete.unit-setup');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const names = Object.keys(SHARED_VARIANTS) as SharedVariant[];
  const g = globalThis as { [SHARED]?: Shared };
  const shared = (g[SHARED] ??= { converted: Promise.all(names.map((n) => convertFixtureFresh(SHARED_VARIANTS[n]))), projects: 0 });
  shared.projects += 1;
  const converted = await shared.converted;
  project.provide('apiFixtures', Object.fromEntries(names.map((n, k) => [n, converted[k]!.dir])) as Record<SharedVariant, string>);
  return async () => {
    shared.projects -= 1;
    if (shared.projects > 0) return;
    delete g[SHARED];
    await Promise.all(converted.map((c) => rm(c.root, { recursive: true, force: true })));
  };
}
