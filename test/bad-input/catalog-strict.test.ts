/**
 * Catalogs the converter must refuse, or read safely (scripts/convert/plan/catalog.ts,
 * catalog-pattern.ts, catalog-text.ts, plan-filter.ts; docs/converter.md, The catalog): the
 * filter patterns run on RE2 (linear time: a pattern that backtracks catastrophically in
 * JavaScript plans the real BCBS Oklahoma table of contents at once, with the plans of an
 * equivalent JavaScript pattern), syntax RE2 lacks refused naming the field and the pattern, a
 * catalog that is not UTF-8 refused naming its encoding with no NUL byte on stderr, a filter
 * misspelt or misplaced refused naming it and where it belongs, and a reference insurer without
 * files refused naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { fileNameMatcher, fileNameOf, planMatcher } from '../../scripts/convert/plan/plan-filter';
import type { RunPlan } from '../../scripts/convert/plan/run-plan';
import { catalogOf, makeWorkspace, re, ROOT, runCli, type Workspace } from './harness';

const BCBS_OK = path.join(ROOT, 'test/fixtures/toc/2025-07-23_Blue-Cross-Blue-Shield-of-Oklahoma_index.json');
const PLAN_CLI = path.join(ROOT, 'scripts/convert/cli/plan.ts');

interface RawToc {
  reporting_structure: Array<{ reporting_plans: Array<{ plan_name: string }>; in_network_files: Array<{ location: string }> }>;
}

let ws: Workspace;
let raw: RawToc;

beforeAll(async () => {
  ws = await makeWorkspace('catalog-strict');
  await copyFile(BCBS_OK, path.join(ws.dir, 'index.json'));
  raw = JSON.parse(await readFile(BCBS_OK, 'utf8')) as RawToc;
});

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

/**
 * Plans the Oklahoma table of contents with `plan_name` in a real `npm run plan` process, killed
 * after `limitMs`: a pattern that hangs the thread cannot be stopped by a timer in it.
 */
async function planOklahoma(planName: string, limitMs = 25_000): Promise<{ code: number | null; stderr: string; plan: RunPlan | null }> {
  const dir = await mkdtemp(path.join(ws.dir, 'plan-'));
  const catalog = path.join(dir, 'catalog.json');
  await writeFile(catalog, JSON.stringify({
    reference_insurer: 'bcbsok',
    insurers: [{ id: 'bcbsok', name: 'BCBS Oklahoma', files: [{ table_of_contents: '../index.json' }] }],
    filters: { plans: { plan_name: planName } },
  }));
  const out = path.join(dir, 'plan.json');
  const child = spawn(process.execPath, ['--import', 'tsx', PLAN_CLI, '--catalog', catalog, '--out', out, '--no-head'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  }).finally(() => clearTimeout(timer));
  const plan = code === 0 ? (JSON.parse(await readFile(out, 'utf8')) as RunPlan) : null;
  return { code, stderr, plan };
}

/** The distinct in-network files (URL without query) of the structures serving a plan whose name passes `keep`. */
const filesOf = (keep: (name: string) => boolean): Set<string> =>
  new Set(raw.reporting_structure.filter((s) => s.reporting_plans.some((p) => keep(p.plan_name))).flatMap((s) => s.in_network_files.map((f) => f.location.split('?')[0]!)));

/** Writes `bytes` as a catalog and runs the converter on it. */
async function convertWith(name: string, bytes: string | Buffer): Promise<{ code: number; stderr: string; catalog: string }> {
  const catalog = path.join(ws.dir, name);
  await writeFile(catalog, bytes);
  return { ...(await runCli(['--catalog', catalog, '--out', path.join(ws.dir, `out-${name}`)])), catalog };
}

describe('catalog patterns run in linear time (RE2)', () => {
  it('plans the Oklahoma table with a catastrophically backtracking plan_name at once', { timeout: 30_000 }, async () => {
    // Many of the 4,106 plan names end otherwise than HMO: JavaScript's RegExp tries every split of their words.
    const none = await planOklahoma('^(\\w+\\s?)*HMO$');
    expect(none.code).toBe(0);
    expect(none.plan!.files).toEqual([]);
    expect(filesOf((n) => /^(?:\w+\s)*\w*HMO$/i.test(n)).size).toBe(0);
    expect(none.stderr).toContain("none of its 18 reporting structures serves a plan and a file the catalog's filters select");
  });

  it('selects the plans of an equivalent pattern JavaScript runs without backtracking, case-insensitively', { timeout: 30_000 }, async () => {
    const some = await planOklahoma('^(\\w+\\s?)*plan d$');
    expect(some.code).toBe(0);
    // (\w+\s?)* before a word character is (\w+\s)*\w*: the same names, each matched one way only.
    const expected = filesOf((n) => /^(?:\w+\s)*\w*plan d$/i.test(n));
    expect(expected.size).toBe(1);
    expect(new Set(some.plan!.files.map((f) => f.url.split('?')[0]))).toEqual(expected);
    expect(some.plan!.files[0]!.plans.map((p) => p.plan_name)).toContain('Y04506 107 HMO R PLAN D');
  });

  it('keeps the case-insensitive search of plan names and file names', () => {
    const plan = { plan_name: 'Acme Blue PPO Gold', plan_id_type: 'ein', plan_id: '12-3456789', plan_market_type: 'group' };
    expect(planMatcher({ plan_name: '\\bppo\\b' })!(plan)).toBe(true);
    expect(planMatcher({ plan_name: 'blue\\s+ppo' })!(plan)).toBe(true);
    expect(planMatcher({ plan_name: '^ppo' })!(plan)).toBe(false);
    const file = fileNameMatcher({ file_name: '_ppo_\\d+\\.json' })!;
    expect(file('https://x.example/a/2025-07_Blue_PPO_12.json.gz?Signature=AB_PPO_9.json')).toBe(true);
    expect(file('https://x.example/a/2025-07_Blue_HMO_12.json.gz?x=_PPO_9.json')).toBe(false);
    expect(fileNameOf('https://x.example/a/b_PPO_1.json.gz?s=1')).toBe('b_PPO_1.json.gz');
  });
});

describe('catalog patterns RE2 refuses stop the run at the catalog', () => {
  const cases: Array<[string, string, string, RegExp]> = [
    ['a backreference', 'filters.plans.plan_name', '(hmo) \\1', /invalid escape sequence: `\\1`/],
    ['a lookahead', 'filters.file_name', '^(?=.*ppo).*\\.json', /invalid or unsupported Perl syntax: `\(\?=`/],
    ['a lookbehind', 'filters.plans.plan_name', '(?<!blue )hmo', /invalid named capture/],
    ['a syntax error', 'filters.file_name', '(unclosed', /missing closing \)/],
  ];
  it.each(cases)("refuses %s naming the field, the pattern and RE2's reason", async (what, field, pattern, reason) => {
    const filters = field === 'filters.file_name' ? { file_name: pattern } : { plans: { plan_name: pattern } };
    const { code, stderr, catalog } = await convertWith(`pattern-${what.replace(/\W/g, '')}.json`, JSON.stringify(catalogOf(['good.json'], [], { filters })));
    expect(code).toBe(1);
    expect(stderr.split('\n')).toHaveLength(2);
    expect(stderr).toMatch(new RegExp(`^convert: ${re(catalog)}: field ${re(field)} is not a valid regular expression \\(`));
    expect(stderr).toMatch(reason);
    expect(stderr).toContain('RE2 syntax, without backreferences or lookaround');
    expect(stderr).toContain(`: ${JSON.stringify(pattern)}\n`);
  });
});

describe('filters are strict: a misspelt or misplaced filter stops the run, naming it', () => {
  /** The catalog of the workspace's good file with `insurer` merged into its insurer and `extra` at the top. */
  const withFilters = (extra: object, file: object = {}): object => ({
    reference_insurer: 'good',
    insurers: [{ id: 'good', name: 'Good', files: [{ url: 'good.json', ...file }] }],
    ...extra,
  });
  const cases: Array<[string, object, object, string]> = [
    ['a plan filter one level too high', { filters: { plan_market_type: 'group' } }, {},
      'unknown setting filters.plan_market_type (a plan filter: it belongs in filters.plans); a filter the converter does not know would convert everything'],
    ['a misspelt filter', { filters: { state: ['CA'] } }, {},
      'unknown setting filters.state; a filter the converter does not know would convert everything'],
    ['a misspelt plan filter', { filters: { plans: { plan_type: 'group' } } }, {},
      'unknown setting filters.plans.plan_type; a filter the converter does not know would convert everything'],
    ['a state that is no USPS code', { filters: { states: ['CA', 'ZZ'] } }, {},
      'field filters.states: "ZZ" is not a US state or territory code (USPS, two letters)'],
    ['a plan filter written in a file entry', {}, { plan_name: 'PPO' },
      'unknown setting insurers[0].files[0].plan_name (it belongs in insurers[0].files[0].plans); a filter the converter does not know would convert everything'],
    ['a billing-code filter written in a file entry', {}, { billing_codes: ['99213'] },
      'unknown setting insurers[0].files[0].billing_codes (it belongs in filters); a filter the converter does not know would convert everything'],
    ["a misspelt key of a file entry's plans", {}, { plans: { market: 'group' } },
      'unknown setting insurers[0].files[0].plans.market; a filter the converter does not know would convert everything'],
  ];
  it.each(cases)('refuses %s', async (what, extra, file, message) => {
    const { code, stderr, catalog } = await convertWith(`strict-${what.replace(/\W/g, '')}.json`, JSON.stringify(withFilters(extra, file)));
    expect({ code, stderr }).toEqual({ code: 1, stderr: `convert: ${catalog}: ${message}\n` });
  });

  it("refuses a file entry's file_name that RE2 refuses, naming the field", async () => {
    const { code, stderr, catalog } = await convertWith('strict-file-pattern.json', JSON.stringify(withFilters({}, { file_name: '(?=ppo)' })));
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^convert: ${re(catalog)}: field insurers\\[0\\]\\.files\\[0\\]\\.file_name is not a valid regular expression \\(`));
  });

  it('still converts with every filter known, in its place; the manifest names the product\'s group', async () => {
    const catalog = withFilters(
      { filters: { billing_codes: ['99213'], plans: { plan_market_type: 'group' }, file_name: 'good' } },
      { plans: { plan_name: 'x' }, file_name: 'good' },
    ) as { insurers: Array<{ group?: string }> };
    catalog.insurers[0]!.group = 'Good Company';
    const { code, stderr } = await convertWith('strict-known.json', JSON.stringify(catalog));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const manifest = JSON.parse(await readFile(path.join(ws.dir, 'out-strict-known.json', 'manifest.json'), 'utf8')) as DatasetManifest;
    expect(manifest.insurers.map((i) => [i.id, i.name, i.group])).toEqual([['good', 'Good', 'Good Company']]);
  });
});

/** `text` in UTF-16, little- or big-endian, with its byte-order mark. */
function utf16(text: string, endian: 'le' | 'be'): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return endian === 'le' ? le : Buffer.from(le).swap16();
}

describe('a catalog is UTF-8', () => {
  const json = JSON.stringify(catalogOf(['good.json']));
  it.each([
    ['UTF-16 LE', utf16(json, 'le'), 'is UTF-16 (little-endian, byte-order mark FF FE); save it as UTF-8'],
    ['UTF-16 BE', utf16(json, 'be'), 'is UTF-16 (big-endian, byte-order mark FE FF); save it as UTF-8'],
    ['UTF-32 LE', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), ...[...json].map((c) => Buffer.from([c.charCodeAt(0), 0, 0, 0]))]),
      'is UTF-32 (little-endian, byte-order mark FF FE 00 00); save it as UTF-8'],
    ['UTF-16 LE without a byte-order mark', Buffer.from(json, 'utf16le'),
      'has a NUL byte at offset 1 (UTF-16 or UTF-32 without a byte-order mark, or not text); save it as UTF-8'],
    ['Latin-1', Buffer.from(json.replace('"Good"', '"M\u00e9dica"'), 'latin1'), `is not UTF-8: invalid byte 0xE9 at offset ${json.indexOf('"Good"') + 2}; save it as UTF-8`],
  ])('refuses a catalog in %s naming the file and its encoding, with no NUL byte on stderr', async (what, bytes, message) => {
    const { code, stderr, catalog } = await convertWith(`catalog-${what.replace(/\W/g, '')}.json`, bytes);
    expect(stderr).not.toContain('\0');
    expect({ code, stderr }).toEqual({ code: 1, stderr: `convert: ${catalog} ${message}\n` });
  });

  it('reads a UTF-8 catalog with a byte-order mark', async () => {
    const { code, stderr } = await convertWith('catalog-utf8-bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('quotes no control character of a catalog that is not JSON', async () => {
    const { code, stderr } = await convertWith('catalog-escape.json', '{"reference_insurer": \u001b[31mgood}');
    expect(code).toBe(1);
    expect(stderr).toMatch(/: not valid JSON \(/);
    expect(stderr).not.toContain('\u001b');
    expect(stderr.split('\n')).toHaveLength(2);
  });
});

describe('the reference insurer', () => {
  it('is refused without files, named', async () => {
    const catalog = {
      reference_insurer: 'good',
      insurers: [{ id: 'other', name: 'Other', files: [{ url: 'good.json' }] }, { id: 'good', name: 'Good', files: [] }],
    };
    const { code, stderr, catalog: file } = await convertWith('catalog-no-reference-files.json', JSON.stringify(catalog));
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `convert: ${file}: reference_insurer good has no files (insurers[1].files is empty); every comparison is against its rates\n`,
    });
  });
});
