/**
 * What the converter prints (docs/converter.md, What it reads, and what it does with bad input): on a terminal a cli-progress bar per file (bytes
 * read of total, percent, rate, ETA); otherwise one summary line per file and one for the dataset;
 * with `--quiet` nothing but errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeProgress } from '../../scripts/convert/common/progress';
import { runConvertCli } from '../../scripts/convert/cli/convert';

/** A stream that says it is a terminal 120 columns wide and keeps what is written. */
function fakeTerminal(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  const s = new PassThrough();
  let text = '';
  s.on('data', (d: Buffer) => void (text += d.toString()));
  Object.assign(s, { isTTY, columns: 120 });
  return { stream: s as unknown as NodeJS.WriteStream, text: () => text };
}

const FILE = (code: string): string => JSON.stringify({
  reporting_entity_name: 'P', reporting_entity_type: 'issuer', last_updated_on: '2025-08-01', version: '1.0.0',
  in_network: [{ negotiation_arrangement: 'ffs', name: 'S', billing_code_type: 'CPT', billing_code_type_version: '2025', billing_code: code, description: 'd',
    negotiated_rates: [{ provider_groups: [{ npi: [1111111112], tin: { type: 'ein', value: '111111111' } }],
      negotiated_prices: [{ negotiated_type: 'negotiated', negotiated_rate: 10, expiration_date: '9999-12-31', billing_class: 'professional' }] }] }],
});

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-progress-'));
  await writeFile(path.join(tmp, 'a.json'), FILE('99213'));
  await writeFile(path.join(tmp, 'b.json'), FILE('99214'));
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({
    reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ url: 'a.json' }] }, { id: 'b', name: 'B', files: [{ url: 'b.json' }] }],
    colour: 'blue',
  }));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('progress display', () => {
  it('on a terminal: the file, bytes read of total, percent, rate and ETA', () => {
    const t = fakeTerminal(true);
    const p = makeProgress('mrf/a.json.gz', false, t.stream);
    p.update(5e6, 2e7);
    p.update(1e7, 2e7);
    p.stop();
    // first render at 5 MB of 20 MB = 25 %
    expect(t.text()).toMatch(/mrf\/a\.json\.gz \[.*\] 25% \| 5\.0\/20\.0 MB \| [\d.]+ MB\/s \| ETA /);
  });

  it('nothing when quiet, nothing when not a terminal', () => {
    for (const [tty, quiet] of [[true, true], [false, false]] as const) {
      const t = fakeTerminal(tty);
      const p = makeProgress('a.json', quiet, t.stream);
      p.update(1, 2);
      p.stop();
      expect(t.text()).toBe('');
    }
  });
});

describe('converter lines', () => {
  it('not on a terminal: the warning, one summary line per file, one for the dataset', async () => {
    let text = '';
    const code = await runConvertCli(['--catalog', path.join(tmp, 'catalog.json'), '--out', path.join(tmp, 'out'), '--jobs', '1'], (t) => void (text += t));
    expect(code).toBe(0);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('warning: unknown field ignored: colour');
    expect(lines[1]).toMatch(/^a\.json: 1 items, 0 skipped by the filter, 1 rate rows, 0 provider references \(0 remote: 0 fetched, 0 unresolved, 0 named by no rate\), 0\.0 MB JSON$/);
    expect(lines[2]).toMatch(/^b\.json: 1 items, /);
    expect(lines[3]).toMatch(/^dataset written to .*out: 2 rate rows, 2 services, 0 unresolved, 0 problems$/);
  });

  it('--quiet: nothing but errors', async () => {
    let text = '';
    expect(await runConvertCli(['--catalog', path.join(tmp, 'catalog.json'), '--out', path.join(tmp, 'out'), '--quiet', '--jobs', '1'], (t) => void (text += t))).toBe(0);
    expect(text).toBe('');
    expect(await runConvertCli(['--catalog', path.join(tmp, 'nope.json'), '--out', path.join(tmp, 'out'), '--quiet'], (t) => void (text += t))).toBe(1);
    expect(text).toMatch(/^convert: .*nope\.json: cannot read catalog \(ENOENT.*\n$/);
  });

  it('a bad option value is an error line and exit 1', async () => {
    let text = '';
    expect(await runConvertCli(['--catalog', 'c.json', '--out', 'o', '--fetch-retries', '-1'], (t) => void (text += t))).toBe(1);
    expect(text).toBe('convert: invalid --fetch-retries: -1\n');
  });
});
