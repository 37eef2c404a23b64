/**
 * `--out` safety (scripts/convert/build/output/output-guard.ts): the converter writes only into an absent path,
 * an empty directory or a dataset it wrote, never over an input of the catalog; anything else is
 * refused before any source is read, exit 1, one stderr line naming the path, and nothing beside
 * or inside `--out` changes (every file of the tree hashed, names and bytes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lstat, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogOf, cliProcess, leftovers, makeWorkspace, mrf, re, runCli, treeHash, type Workspace } from './harness';

let ws: Workspace;

beforeAll(async () => {
  ws = await makeWorkspace('bad-out');
  expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
});

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

/**
 * Converts `catalog` into `out` (in-process), expecting a refusal: exit 1, stderr exactly one line
 * matching `line`; the whole workspace (dataset, inputs, `out` itself) byte for byte unchanged, no
 * temporary directory left beside `out` or the dataset.
 */
async function expectRefused(out: string, line: RegExp, catalog = ws.catalog): Promise<void> {
  const before = await treeHash(ws.dir);
  const { code, stderr } = await runCli(['--catalog', catalog, '--out', out]);
  expect(stderr).toMatch(line);
  expect(stderr.split('\n')).toHaveLength(2);
  expect(code).toBe(1);
  expect(await treeHash(ws.dir)).toEqual(before);
  expect(await leftovers(out)).toEqual([]);
  expect(await leftovers(ws.out)).toEqual([]);
}

describe('an output that is ours or free is written, exit 0', () => {
  it('an empty directory', async () => {
    const empty = path.join(ws.dir, 'empty');
    await mkdir(empty);
    expect(await runCli(['--catalog', ws.catalog, '--out', empty])).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(await readFile(path.join(empty, 'manifest.json'), 'utf8'))).toMatchObject({ format: 'compete-dataset' });
    expect(await leftovers(empty)).toEqual([]);
  });

  it('an absent path (its parent created)', async () => {
    const absent = path.join(ws.dir, 'new', 'deeper', 'dataset');
    expect(await runCli(['--catalog', ws.catalog, '--out', absent])).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(await readFile(path.join(absent, 'manifest.json'), 'utf8'))).toMatchObject({ format: 'compete-dataset' });
    expect(await leftovers(absent)).toEqual([]);
  });

  it('a dataset it wrote (replaced)', async () => {
    const before = (await stat(path.join(ws.out, 'manifest.json'))).ino;
    expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
    // a new directory was swapped in (same bytes but created_at: the inode tells)
    expect((await stat(path.join(ws.out, 'manifest.json'))).ino).not.toBe(before);
    expect(await leftovers(ws.out)).toEqual([]);
  });

  it('a symbolic link to a dataset: the dataset it points to is replaced, the link kept', async () => {
    const link = path.join(ws.dir, 'link-to-dataset');
    await symlink(ws.out, link);
    const before = (await stat(path.join(ws.out, 'manifest.json'))).ino;
    expect(await runCli(['--catalog', ws.catalog, '--out', link])).toEqual({ code: 0, stderr: '' });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await stat(path.join(ws.out, 'manifest.json'))).ino).not.toBe(before);
    expect(await leftovers(ws.out)).toEqual([]);
    expect(await leftovers(link)).toEqual([]);
    await rm(link);
  });
});

describe('an output that is not ours is refused, exit 1, nothing changed', () => {
  it('a directory that is not a dataset, with a file in it: the file survives', async () => {
    const thesis = path.join(ws.dir, 'thesis');
    await mkdir(thesis);
    await writeFile(path.join(thesis, 'chapter-1.md'), '# my thesis\n');
    await expectRefused(thesis, new RegExp(`^convert: --out ${re(thesis)}: a directory that is not a Compete dataset \\(no manifest\\.json\\); refusing to replace it\\n$`));
    expect(await readFile(path.join(thesis, 'chapter-1.md'), 'utf8')).toBe('# my thesis\n');
  });

  it('a directory whose manifest.json is not a Compete dataset\'s', async () => {
    const other = path.join(ws.dir, 'other-tool');
    await mkdir(other);
    await writeFile(path.join(other, 'manifest.json'), JSON.stringify({ format: 'someone-else', files: [] }));
    await expectRefused(other, new RegExp(`^convert: --out ${re(other)}: a directory that is not a Compete dataset \\(manifest\\.json format "someone-else", not "compete-dataset"\\); refusing to replace it\\n$`));
  });

  it('a directory whose manifest.json is not JSON', async () => {
    const broken = path.join(ws.dir, 'broken-manifest');
    await mkdir(broken);
    await writeFile(path.join(broken, 'manifest.json'), '{"format": "compete-dataset"');
    await expectRefused(broken, new RegExp(`^convert: --out ${re(broken)}: a directory that is not a Compete dataset \\(manifest\\.json is not JSON\\); refusing to replace it\\n$`));
  });

  it('a regular file', async () => {
    const notes = path.join(ws.dir, 'notes.txt');
    await writeFile(notes, 'notes\n');
    await expectRefused(notes, new RegExp(`^convert: --out ${re(notes)}: a file, not a dataset directory; refusing to replace it\\n$`));
  });

  it('refuses before reading any source (the catalog also names an unreadable file)', async () => {
    const thesis = path.join(ws.dir, 'thesis2');
    await mkdir(thesis);
    await writeFile(path.join(thesis, 'x.txt'), 'x');
    await writeFile(path.join(ws.dir, 'garbage.json'), 'hello, world');
    const catalog = path.join(ws.dir, 'catalog-garbage.json');
    await writeFile(catalog, JSON.stringify(catalogOf(['good.json'], ['garbage.json'])));
    await expectRefused(thesis, new RegExp(`^convert: --out ${re(thesis)}: a directory that is not a Compete dataset`), catalog);
  });
});

describe('an output directory that holds an input the catalog names is refused', () => {
  // each input lives in `inputs/`, a dataset-looking directory, so only the input rule refuses it
  const cases: Array<[string, (f: string) => object, string]> = [
    ['url (in-network file)', (f) => catalogOf(['good.json', f]), 'insurers[0].files[1].url'],
    ['table_of_contents', (f) => ({ ...catalogOf(['good.json']), insurers: [{ id: 'good', name: 'Good', files: [{ url: 'good.json' }, { table_of_contents: f }] }] }),
      'insurers[0].files[1].table_of_contents'],
    ['npi_registry', (f) => catalogOf(['good.json'], [], { npi_registry: f }), 'npi_registry'],
    ['claims_volume', (f) => catalogOf(['good.json'], [], { claims_volume: f }), 'claims_volume'],
    ['services', (f) => catalogOf(['good.json'], [], { services: f }), 'services'],
    ['filters.billing_codes (file)', (f) => catalogOf(['good.json'], [], { filters: { billing_codes: f } }), 'filters.billing_codes'],
  ];
  for (const [name, make, field] of cases) {
    it(name, async () => {
      const inputs = path.join(ws.dir, `inputs-${field.replace(/\W/g, '_')}`);
      await mkdir(path.join(inputs, 'sub'), { recursive: true });
      // a manifest that says it is a dataset: the input rule alone must refuse it
      await writeFile(path.join(inputs, 'manifest.json'), JSON.stringify({ format: 'compete-dataset' }));
      const file = path.join(inputs, 'sub', 'input.txt');
      await writeFile(file, 'x\n');
      const catalog = path.join(ws.dir, `catalog-${field.replace(/\W/g, '_')}.json`);
      await writeFile(catalog, JSON.stringify(make(path.relative(ws.dir, file))));
      await expectRefused(inputs, new RegExp(`^convert: --out ${re(inputs)}: holds ${re(field)} ${re(file)}; refusing to replace an input\\n$`), catalog);
    });
  }

  it('a file a local table of contents lists (refused once the table is read, before the file is)', async () => {
    const listed = path.join(ws.dir, 'listed');
    await mkdir(listed);
    await writeFile(path.join(listed, 'manifest.json'), JSON.stringify({ format: 'compete-dataset' }));
    await writeFile(path.join(listed, 'a.json'), mrf());
    await writeFile(path.join(ws.dir, 'toc.json'), JSON.stringify({
      reporting_entity_name: 'Index', reporting_entity_type: 'issuer',
      reporting_structure: [{ reporting_plans: [{ plan_name: 'P', plan_id_type: 'EIN', plan_id: '11-1111111', plan_market_type: 'group' }],
        in_network_files: [{ description: 'a', location: 'listed/a.json' }] }],
    }));
    const catalog = path.join(ws.dir, 'catalog-toc.json');
    await writeFile(catalog, JSON.stringify({ reference_insurer: 'good', insurers: [{ id: 'good', name: 'Good', files: [{ table_of_contents: 'toc.json' }] }] }));
    await expectRefused(listed, new RegExp(`^convert: --out ${re(listed)}: holds a file listed by table of contents toc\\.json ${re(path.join(listed, 'a.json'))}; refusing to replace an input\\n$`), catalog);
  });
});

describe('the real process', () => {
  it('exits 1 with the one line for a non-dataset directory, and leaves it', async () => {
    const thesis = path.join(ws.dir, 'thesis-real');
    await mkdir(thesis);
    await writeFile(path.join(thesis, 'chapter-1.md'), '# mine\n');
    const before = await treeHash(ws.dir);
    const r = await cliProcess(['--catalog', ws.catalog, '--out', thesis, '--quiet']);
    expect(r).toEqual({ code: 1, signal: null, stderr: expect.stringMatching(new RegExp(`^convert: --out ${re(thesis)}: a directory that is not a Compete dataset \\(no manifest\\.json\\); refusing to replace it\\n$`)) as string });
    expect(await treeHash(ws.dir)).toEqual(before);
  });
});

// last: on a converter without the guard these replace the workspace itself
describe('the catalog, or a directory above it, is refused', () => {
  it('the catalog file itself', async () => {
    await expectRefused(ws.catalog, new RegExp(`^convert: --out ${re(ws.catalog)}: the catalog itself; refusing to replace an input\\n$`));
  });

  it('the catalog file through a relative path with ..', async () => {
    const out = `${ws.dir}${path.sep}dataset${path.sep}..${path.sep}catalog.json`;
    await expectRefused(out, new RegExp(`^convert: --out ${re(out)}: the catalog itself; refusing to replace an input\\n$`));
  });

  it('the directory that holds the catalog', async () => {
    await expectRefused(ws.dir, new RegExp(`^convert: --out ${re(ws.dir)}: holds the catalog ${re(ws.catalog)}; refusing to replace an input\\n$`));
  });

  it('a symbolic link to the directory that holds the catalog', async () => {
    const scratch = path.join(ws.dir, 'scratch');
    await mkdir(scratch, { recursive: true });
    const l = path.join(scratch, 'ws-link');
    await symlink(ws.dir, l);
    await expectRefused(l, new RegExp(`^convert: --out ${re(l)}: holds the catalog ${re(ws.catalog)}; refusing to replace an input\\n$`));
  });
});
