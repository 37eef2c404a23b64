/**
 * The unit run's files share one module graph per fork (vitest.config.ts, project `unit`), so a file
 * that mocks a module, stubs a global or the environment, uses fake-indexeddb's global IndexedDB or
 * sets process.env must be listed in ISOLATED_TESTS, which run alone in theirs. Every listed file exists.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ISOLATED_TESTS } from '../../vitest.config';
import { ROOT, sourceFiles } from './import-graph';

/** What leaks from one file into the next in a shared module graph. */
const LEAKS = new RegExp([
  String.raw`\bvi\.(?:mock|doMock|stubGlobal|stubEnv)\(`,
  'fake-indexeddb',
  // process.env set, replaced, merged into or pruned (a client built from it stays for the process)
  String.raw`process\.env(?:\.\w+|\[[^\]]+\])?\s*=[^=]`,
  String.raw`Object\.assign\(process\.env\b`,
  String.raw`delete process\.env\b`,
  String.raw`globalThis\.\w+\s*=[^=]`,
].join('|'));

describe('isolated unit test files', () => {
  it('list every file that mocks, stubs, or sets a global or the environment', async () => {
    // this file names the patterns; it does not use them
    const tests = (await sourceFiles('test')).filter((f) => f.endsWith('.test.ts') && !f.startsWith('test/e2e/') && f !== 'test/architecture/isolated-tests.test.ts');
    expect(tests.length).toBeGreaterThan(100);
    const leaking: string[] = [];
    for (const file of tests) if (LEAKS.test(await readFile(path.join(ROOT, file), 'utf8'))) leaking.push(file);
    expect(leaking.filter((f) => !ISOLATED_TESTS.includes(f))).toEqual([]);
    expect(leaking.length).toBeGreaterThan(5);
  });

  it('name files that exist', () => {
    for (const f of ISOLATED_TESTS) expect(existsSync(path.join(ROOT, f)), f).toBe(true);
  });
});
