/**
 * The test run's shared generated shapes (test/datasets-once.ts): with COMPETE_TEST_DATASETS set, a
 * shape is generated once into that directory and every call gets its own copy of it, equal to
 * what generateShape writes; without it, each call generates.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateShape } from '../../scripts/generate/shapes';
import { SHARED_SHAPES_ENV, sharedShape } from '../datasets-once';

let root: string;
let before: string | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'compete-shared-shapes-'));
  before = process.env[SHARED_SHAPES_ENV];
});
afterEach(async () => {
  if (before === undefined) delete process.env[SHARED_SHAPES_ENV];
  else process.env[SHARED_SHAPES_ENV] = before;
  await rm(root, { recursive: true, force: true });
});

/** Each file under `dir` by its relative path, with its bytes. */
async function files(dir: string): Promise<Map<string, Buffer>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const names = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(path.join(dir, n))] as const)));
}

describe('shared generated shapes', () => {
  it('generate once into the run\'s directory, and give every caller a copy of its own equal to generateShape\'s', async () => {
    const cache = path.join(root, 'cache');
    process.env[SHARED_SHAPES_ENV] = cache;
    await mkdir(cache);
    const a = path.join(root, 'a');
    const b = path.join(root, 'b');
    const first = await sharedShape('real-file', a, { tiny: true });
    expect(await readdir(cache)).toEqual(['real-file-tiny']);
    const second = await sharedShape('real-file', b, { tiny: true });
    expect(second).toEqual(first);
    expect((await files(a)).size).toBeGreaterThan(5);
    expect(await files(b)).toEqual(await files(a));
    // a copy is its caller's: changing it changes neither the kept one nor another copy
    await writeFile(path.join(a, 'manifest.json'), '{}');
    expect(JSON.parse(await readFile(path.join(cache, 'real-file-tiny', 'manifest.json'), 'utf8'))).toEqual(first);
    expect(JSON.parse(await readFile(path.join(b, 'manifest.json'), 'utf8'))).toEqual(first);
    // the same bytes generateShape writes (the generated shapes are deterministic)
    const fresh = path.join(root, 'fresh');
    await generateShape('real-file', fresh, { tiny: true });
    expect(await files(b)).toEqual(await files(fresh));
  });

  it('generate into the caller\'s directory when no run directory is set', async () => {
    delete process.env[SHARED_SHAPES_ENV];
    const dir = path.join(root, 'alone');
    const manifest = await sharedShape('real-file', dir, { tiny: true });
    expect(manifest.tables.rates.rows).toBeGreaterThan(0);
    expect(existsSync(path.join(dir, 'manifest.json'))).toBe(true);
    expect(await readdir(root)).toEqual(['alone']);
  });
});
