/**
 * The bad-input corpus of issue 3, generated here into a temp dir and converted through the
 * command line (`runConvertCli`, and the real `tsx scripts/convert/cli.ts` process for the exit
 * code): a file that cannot be read fails the run naming the file and the byte offset, exit 1, the
 * previous dataset intact (same manifest bytes); a bad record is rejected into report.json with its
 * JSON path, exit 0, the dataset written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { runConvertCli } from '../../scripts/convert/cli';
import type { ConversionReport } from '../../scripts/convert/problems';
import { startLocalHttp, type LocalHttp } from './local-http';

const ROOT = path.resolve(__dirname, '../..');
const price = (rate: string, type = 'negotiated'): string =>
  `{"negotiated_type":"${type}","negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}`;
const item = (code: string, prices: string, refs = '[1]'): string =>
  `{"negotiation_arrangement":"ffs","name":"S","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":${code},"description":"d",` +
  `"negotiated_rates":[{"provider_references":${refs},"negotiated_prices":[${prices}]}]}`;
const GROUP = '{"provider_group_id":1,"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]}';
/** An in-network file: a valid 99213 item first, then `items`; extra provider references `refs`. */
const mrf = (items: string[], refs: string[] = []): string =>
  `{"reporting_entity_name":"Bad Input Plan","reporting_entity_type":"issuer","last_updated_on":"2025-07-01","version":"1.0.0",` +
  `"provider_references":[${[GROUP, ...refs].join(',')}],"in_network":[${[item('"99213"', price('100')), ...items].join(',\n')}]}`;
const GOOD = mrf([]);

let tmp: string;
let out: string;
let http: LocalHttp;

/** Writes `bytes` as the second file of a catalog and runs the CLI; returns exit code, stderr and the case's catalog. */
async function convertCase(name: string, bytes: string | Buffer): Promise<{ code: number; stderr: string }> {
  await writeFile(path.join(tmp, name), bytes);
  await writeFile(path.join(tmp, `catalog-${name}.json`), JSON.stringify({
    reference_insurer: 'good',
    insurers: [
      { id: 'good', name: 'Good', files: [{ url: 'good.json' }] },
      { id: 'bad', name: 'Bad', files: [{ url: name }] },
    ],
  }));
  let stderr = '';
  const code = await runConvertCli(['--catalog', path.join(tmp, `catalog-${name}.json`), '--out', out, '--quiet', '--jobs', '1'], (t) => void (stderr += t));
  return { code, stderr };
}

const readReport = async (): Promise<ConversionReport> => JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport;
const manifestBytes = (): Promise<string> => readFile(path.join(out, 'manifest.json'), 'utf8');

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-bad-input-'));
  out = path.join(tmp, 'dataset');
  http = await startLocalHttp({});
  await writeFile(path.join(tmp, 'good.json'), GOOD);
  expect((await convertCase('first.json', GOOD)).code).toBe(0);
});

afterAll(async () => {
  await http.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a file that cannot be read: exit 1, file and byte offset on stderr, previous dataset intact', () => {
  const gz = gzipSync(Buffer.from(GOOD));
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['truncated.json.gz', gz.subarray(0, gz.length - 20), /^convert: .*truncated\.json\.gz: truncated gzip stream .* at byte \d+\n$/],
    // the stream ends after 300 bytes, inside the root object
    ['truncated.json', GOOD.slice(0, 300), /^convert: .*truncated\.json: .*at byte 300\n$/],
    ['garbage.json', 'hello, world', /^convert: .*garbage\.json: .*at byte 0\n$/],
    ['empty.json', '', /^convert: .*empty\.json: empty file at byte 0\n$/],
  ];
  for (const [name, bytes, line] of cases) {
    it(name, async () => {
      const before = await manifestBytes();
      const { code, stderr } = await convertCase(name, bytes);
      expect(code).toBe(1);
      expect(stderr).toMatch(line);
      expect(await manifestBytes()).toBe(before);
      expect((await readdir(tmp)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    });
  }
});

describe('a bad record: rejected into report.json with its JSON path, exit 0, dataset written', () => {
  const p = (k: number, rest = ''): string => `$.in_network[${k}]${rest}`;
  const price0 = '.negotiated_rates[0].negotiated_prices[0]';
  const cases: Array<[string, () => string, Array<[string, string]>, RegExp?]> = [
    ['rate-as-string.json', () => mrf([item('"99214"', price('"12.50"'))]), [['invalid_rate', p(1, `${price0}.negotiated_rate`)]]],
    ['code-as-number.json', () => mrf([item('99214', price('12'))]), [['invalid_field', p(1, '.billing_code')]]],
    ['missing-fields.json', () => mrf([item('"99214"', price('12')).replace('"billing_code":"99214",', '').replace('"negotiation_arrangement":"ffs",', '')]),
      [['missing_field', p(1, '.billing_code')]]],
    ['unknown-enum.json', () => mrf([item('"99214"', price('12', 'Capitated'))]), [['unknown_enum', p(1, `${price0}.negotiated_type`)]]],
    ['dangling-id.json', () => mrf([item('"99214"', price('12'), '[77]')]), [['dangling_provider_reference', '$.in_network[*].negotiated_rates[*].provider_references']], /provider group 77/],
    ['remote-404.json', () => mrf([item('"99214"', price('12'), '[2]')], [`{"provider_group_id":2,"location":"${http.base}/refs/gone.json"}`]),
      [['unresolved_remote_reference', '$.provider_references[1]']], /refs\/gone\.json: HTTP 404/],
    ['nan-and-1e400.json', () => mrf([item('"99214"', `${price('NaN')},${price('1e400')},${price('12')}`)]),
      [['invalid_rate', p(1, `${price0}.negotiated_rate`)], ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[1].negotiated_rate')]]],
  ];
  for (const [name, text, expected, message] of cases) {
    it(name, async () => {
      const { code, stderr } = await convertCase(name, text());
      expect([code, stderr]).toEqual([0, '']);
      const report = await readReport();
      const mine = report.problems.filter((x) => x.file === name);
      expect(mine.map((x) => [x.code, x.path])).toEqual(expected);
      if (message) expect(mine[0]!.message).toMatch(message);
      const manifest = JSON.parse(await manifestBytes()) as { sources: Array<{ url: string; rate_rows: number }> };
      expect(manifest.sources.map((s) => s.url)).toEqual(['good.json', name]);
    });
  }
});

describe('the real command line process', () => {
  const cli = (args: string[]): Promise<{ code: number; stderr: string }> =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/convert/cli.ts'), ...args], { cwd: ROOT })
      .then((r) => ({ code: 0, stderr: r.stderr }), (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }));

  it('exits 1 with one line naming the file and offset, and leaves the dataset; exits 0 when written', async () => {
    const before = await manifestBytes();
    const bad = await cli(['--catalog', path.join(tmp, 'catalog-garbage.json.json'), '--out', out, '--quiet']);
    expect(bad).toEqual({ code: 1, stderr: expect.stringMatching(/^convert: .*garbage\.json: not JSON.* at byte 0\n$/) as string });
    expect(await manifestBytes()).toBe(before);
    const ok = await cli(['--catalog', path.join(tmp, 'catalog-first.json.json'), '--out', out, '--quiet']);
    expect(ok).toEqual({ code: 0, stderr: '' });
  });
});
