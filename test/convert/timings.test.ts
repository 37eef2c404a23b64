/**
 * `--timings` (docs/converter.md, Timings): after a run, each phase's wall and CPU seconds and the
 * total, printed even with `--quiet`; a run without it prints nothing of the kind, and a failed
 * run still prints the phases it went through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runConvertCli } from '../../scripts/convert/cli/convert';
import { PhaseTimer } from '../../scripts/convert/common/timings';

const FILE = JSON.stringify({
  reporting_entity_name: 'P', reporting_entity_type: 'issuer', last_updated_on: '2025-08-01', version: '1.0.0',
  in_network: [{ negotiation_arrangement: 'ffs', name: 'S', billing_code_type: 'CPT', billing_code_type_version: '2025', billing_code: '99213', description: 'd',
    negotiated_rates: [{ provider_groups: [{ npi: [1111111112], tin: { type: 'ein', value: '111111111' } }],
      negotiated_prices: [{ negotiated_type: 'negotiated', negotiated_rate: 10, expiration_date: '9999-12-31', billing_class: 'professional' }] }] }],
});

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-timings-'));
  await writeFile(path.join(tmp, 'a.json'), FILE);
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({ reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ url: 'a.json' }] }] }));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The `timings:` lines of `text` as [phase, wall, cpu], without the header. */
function phases(text: string): Array<[string, number, number]> {
  return text.split('\n').filter((l) => l.startsWith('timings: ') && !/ wall s /.test(l))
    .map((l) => {
      const m = /^timings: (.+?)\s+(\d+\.\d\d)\s+(\d+\.\d\d)$/.exec(l);
      if (!m) throw new Error(`not a timings line: ${l}`);
      return [m[1]!, Number(m[2]), Number(m[3])];
    });
}

describe('--timings', () => {
  it('prints every phase of both stages and the total, with --quiet', async () => {
    let text = '';
    const code = await runConvertCli(['--catalog', path.join(tmp, 'catalog.json'), '--out', path.join(tmp, 'out'), '--quiet', '--timings', '--jobs', '1'], (t) => void (text += t));
    expect(code).toBe(0);
    const rows = phases(text);
    const names = rows.map((r) => r[0]);
    for (const phase of ['plan the files', 'ingest', 'load the partitions', 'build the tables', 'validation (Medicare benchmark, source and outlier checks)',
      'price_stats and the Parquet files', 'the manifest', 'the first view', 'total']) {
      expect(names).toContain(phase);
    }
    expect(names.at(-1)).toBe('total');
    const total = rows.at(-1)!;
    // the phases run one after another inside the total
    const sum = rows.slice(0, -1).reduce((a, r) => a + r[1], 0);
    expect(sum).toBeLessThanOrEqual(total[1] + 0.02);
    expect(total[1]).toBeGreaterThan(0);
    expect(total[2]).toBeGreaterThan(0);
  });

  it('prints nothing without the flag; a failed run prints the phases it went through', async () => {
    let text = '';
    expect(await runConvertCli(['--catalog', path.join(tmp, 'catalog.json'), '--out', path.join(tmp, 'out2'), '--quiet', '--jobs', '1'], (t) => void (text += t))).toBe(0);
    expect(text).toBe('');
    text = '';
    await writeFile(path.join(tmp, 'bad.json'), '{"reporting_entity_name": "P", "in_network": [');
    await writeFile(path.join(tmp, 'bad-catalog.json'), JSON.stringify({ reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ url: 'bad.json' }] }] }));
    expect(await runConvertCli(['--catalog', path.join(tmp, 'bad-catalog.json'), '--out', path.join(tmp, 'out3'), '--quiet', '--timings', '--jobs', '1'], (t) => void (text += t))).toBe(1);
    expect(text).toMatch(/^convert: /);
    const names = phases(text).map((r) => r[0]);
    expect(names).toContain('ingest');
    expect(names).not.toContain('the first view');
    expect(names.at(-1)).toBe('total');
  });

  it('adds a phase run twice into one entry', async () => {
    const t = new PhaseTimer();
    await t.time('load', async () => {});
    await t.time('other', async () => {});
    await t.time('load', () => new Promise((r) => setTimeout(r, 30)));
    await expect(t.time('fails', async () => { throw new Error('x'); })).rejects.toThrow('x');
    expect(t.phases.map((p) => p.phase)).toEqual(['load', 'other', 'fails']);
    expect(t.phases[0]!.wallSeconds).toBeGreaterThanOrEqual(0.025);
    expect(t.lines()[0]).toMatch(/^phase\s+wall s\s+CPU s$/);
  });
});
