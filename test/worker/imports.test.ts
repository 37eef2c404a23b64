/**
 * docs/architecture.md: imports go `src -> contract <- workers`; the worker reaches nothing in
 * src/ or scripts/. Checked on the source text of every file under workers/.
 */
import { expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

it('workers/ imports only workers/, contract/ and packages', async () => {
  const bad: string[] = [];
  for (const file of await files(join(root, 'workers'))) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(file, '..', spec));
      if (!target.startsWith('workers') && !target.startsWith('contract')) bad.push(`${relative(root, file)} -> ${spec}`);
    }
  }
  expect(bad).toEqual([]);
});
