/**
 * Global setup of the unit run (vitest.config.ts): converts the api fixture's two shared variants
 * (test/worker/fixture-convert.ts SHARED_VARIANTS) once, with the converter under test, for the
 * many files that boot them (test/worker/fixture-dataset.ts convertFixture copies them); the
 * teardown of the last project deletes them (test/once-per-run.ts).
 */
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { oncePerRun } from './once-per-run';
import { convertFixtureFresh, SHARED_VARIANTS, type SharedVariant } from './worker/fixture-convert';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const names = Object.keys(SHARED_VARIANTS) as SharedVariant[];
  const { value: converted, teardown } = await oncePerRun(
    'unit-setup',
    () => Promise.all(names.map((n) => convertFixtureFresh(SHARED_VARIANTS[n]))),
    async (done) => {
      await Promise.all(done.map((c) => rm(c.root, { recursive: true, force: true })));
    },
  );
  project.provide('apiFixtures', Object.fromEntries(names.map((n, k) => [n, converted[k]!.dir])) as Record<SharedVariant, string>);
  return teardown;
}
