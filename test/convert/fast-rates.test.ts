/**
 * The parser threads' fast path (scripts/convert/ingest/fast-rates.ts) against the slow one (`JSON.parse`
 * and the normalisers): on random elements full of the quirks of real files (docs/converter.md; enum case,
 * surrounding spaces, decimal and long group ids, unsorted or padded code lists, escapes,
 * non-ASCII text, unknown keys, duplicate keys, inline groups, prices before ids, truncated or
 * invalid JSON) and on whole real files, both must give the same spool rows, the same counts and
 * the same problems; and the fast path must take the common shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mulberry32 } from '../../contract/rules/prng';
import { sourceState, spoolElement, type ElementSlice, type SourceState } from '../../scripts/convert/ingest/spool-element';
import { convertCatalog } from '../../scripts/convert/index';

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-fast-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const rnd = mulberry32(20261121);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const chance = (p: number): boolean => rnd() < p;

/** JSON text of a value, or a raw token when given as { raw }. */
type Json = string | number | boolean | null | Json[] | { [k: string]: Json } | { raw: string };
function write(v: Json, ws: () => string): string {
  if (v !== null && typeof v === 'object' && 'raw' in v && typeof v.raw === 'string' && Object.keys(v).length === 1) return v.raw;
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => write(x, ws)).join(`,${ws()}`)}${ws()}]`;
  if (v !== null && typeof v === 'object') {
    return `{${ws()}${Object.entries(v).map(([k, x]) => `"${k}"${ws()}:${ws()}${write(x as Json, ws)}`).join(`,${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(v);
}
const raw = (s: string): Json => ({ raw: s });

/** Keys in a random order, an absent value (undefined) left out. */
function obj(entries: Array<[string, Json | undefined]>): { [k: string]: Json } {
  const kept = entries.filter((e): e is [string, Json] => e[1] !== undefined);
  if (chance(0.2)) kept.sort(() => rnd() - 0.5);
  return Object.fromEntries(kept);
}

/** Half the elements are clean, the other half has a quirk in a field now and then. */
let quirky = true;
/** Mostly what real files hold, sometimes a quirk. */
const common = <T>(usual: T, odd: readonly T[], p = 0.15): T => (quirky && chance(p) ? pick(odd) : usual);

function price(): Json {
  // the fast path matches a price's keys against the previous price's key order first: orders
  // that change (obj), keys that only start or end like a known one, and a known key written with
  // an escape (which JSON.parse reads as the key itself) must give the slow path's rows
  const typeKey = quirky && chance(0.02) ? 'negotiated\\u005ftype' : 'negotiated_type';
  return obj([
    [typeKey, common<Json | undefined>(pick(['negotiated', 'fee schedule', 'derived', 'percentage', 'per diem']),
      ['Negotiated', ' negotiated', 'bogus', '', undefined, 5, null])],
    ['negotiated_rate', common<Json | undefined>(raw((10 + rnd() * 990).toFixed(pick([0, 1, 2, 2, 2]))),
      [raw('123.456'), raw('1e2'), raw('-0'), raw('0'), raw('-12.5'), raw('12345678901234.56'), raw('1E400'), raw('0.1'), '12', null, undefined, raw('7.10')])],
    ['expiration_date', common<Json | undefined>('9999-12-31', [' 2025-01-01', '2025-01-01 ', '', null, undefined, 20250101, 'a,b', 'é', raw('"2025\\u002d01"')])],
    ['service_code', common<Json | undefined>(pick([['11'], ['11', '22'], ['21', '22', '23'], ['02'], ['1']]),
      [[], ['22', '11'], ['11', '11'], ['11', '1'], '11', null, undefined, [' 11'], ['ab'], [1, 2], ['1', '2'], ['O1', 'A'], [''], raw('[ "11" , "22" ]')])],
    ['billing_class', common<Json | undefined>(pick(['professional', 'institutional', 'both']), ['Professional', 'other', undefined, ''])],
    ['billing_code_modifier', common<Json | undefined>(pick([[], undefined]), [['26'], ['TC', '26'], ['26', 'TC'], ['tc'], '26'])],
    ['additional_information', common<Json | undefined>(undefined, ['', 'note', 'a, b', 'quote " x', 'é', null, 5, 'line\nbreak'])],
    ['setting', common<Json | undefined>(undefined, ['inpatient', 'both', '', null, 'Outpatient', 'elsewhere'])],
    ...(chance(0.05) ? [[pick(['unknown_key', 'negotiated_rates', 'negotiated_typ', 'billing_classes']),
      pick<Json>([{ a: [1, { b: null }] }, 'x', true, 1.5])] as [string, Json]] : []),
  ]);
}

function rate(): Json {
  const ids = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => raw(String(Math.floor(rnd() * 50))));
  const prices = Array.from({ length: 1 + Math.floor(rnd() * 3) }, price);
  const entries: Array<[string, Json | undefined]> = [
    ['provider_references', common<Json | undefined>(ids, [[], ['7'], [' 7'], [''], [raw('1.50')], [raw('690.64470')], [raw('12345678901234567')],
      [raw('-0')], [raw('1e3')], undefined, [null], ['a,b'], 5])],
    ['negotiated_prices', common<Json | undefined>(prices, [[], undefined, ['x'], null], 0.05)],
  ];
  if (quirky && chance(0.05)) entries.push(['provider_groups', [{ npi: [1234567893], tin: { type: 'ein', value: '12-3456789' } }]]);
  if (quirky && chance(0.05)) entries.reverse(); // prices before ids
  if (quirky && chance(0.03)) entries.push(['provider_references', [raw('9')]]); // a duplicate key: the last one counts
  return Object.fromEntries(entries.filter((e): e is [string, Json] => e[1] !== undefined));
}

function item(): Json {
  return obj([
    ['negotiation_arrangement', common<Json | undefined>('ffs', ['FFS', 'bundle', undefined, 'other'])],
    ['name', common<Json>('Office visit', ['Caf\u00e9 visit', 'quote " and \\ slash', raw('"esc\\u00e9aped"')])],
    ['billing_code_type', common<Json | undefined>('CPT', ['cpt', ' HCPCS ', undefined, 'RC'])],
    ['billing_code_type_version', '2025'],
    ['billing_code', common<Json | undefined>(pick(['99213', '99214', '0450']), [' 99215 ', 99213, '', undefined, null])],
    ['description', common<Json>('A visit', ['', 'Comma, and "quotes"', 'Ünïcode'])],
    ['negotiated_rates', common<Json | undefined>(Array.from({ length: 1 + Math.floor(rnd() * 3) }, rate), [[], undefined, null, 'x'], 0.05)],
    ...(chance(0.05) ? [['bundled_codes', [{ billing_code_type: 'cpt', billing_code: ' 99213 ', description: 'x' }]] as [string, Json]] : []),
  ]);
}

/** Whitespace between tokens: none, or a little of every JSON kind. */
const spacing = (): (() => string) => (chance(0.3) ? () => pick(['', ' ', '\n  ', '\t', '\r\n']) : () => '');

/** A text that is broken as JSON: cut short, or with garbage. */
function broken(text: string): string {
  switch (Math.floor(rnd() * 4)) {
    case 0: return text.slice(0, Math.floor(rnd() * text.length));
    case 1: return `${text},`;
    case 2: return text.replace(/\d+(\.\d+)?/, 'NaN');
    default: return text.replace(':', '');
  }
}

interface Spooled {
  files: Record<string, string>;
  state: Omit<SourceState, 'rows' | 'fast'>;
  priceRows: number;
  paths: string[];
}

/** Spools elements (kind, JSON text, split) both ways into `dir`. */
async function spoolBoth(dir: string, elements: Array<{ kind: ElementSlice['kind']; text: string; split?: boolean }>,
  keep: (code: string) => boolean = () => true): Promise<{ fast: Spooled; slow: Spooled }> {
  await mkdir(dir, { recursive: true });
  const run = async (name: string, slow: boolean): Promise<Spooled> => {
    const s = sourceState(path.join(dir, name), 3);
    const paths: string[] = [];
    // one buffer with every element, separated as in a batch (parse-pool.ts)
    const texts = elements.map((e) => Buffer.from(e.text, 'utf8'));
    const buf = Buffer.concat(texts.flatMap((t) => [t, Buffer.from(',')]));
    let at = 0;
    elements.forEach((e, k) => {
      const t = texts[k]!;
      paths.push(spoolElement(s, buf, { kind: e.kind, index: k, rateIndex: k % 7, offset: 1000 + at, start: at, end: at + t.length, split: e.split === true }, keep, slow));
      at += t.length + 1;
    });
    const written = s.rows.close();
    const files: Record<string, string> = {};
    for (const [table, parts] of Object.entries(written)) files[table] = (await Promise.all(parts.map((f) => readFile(f, 'utf8')))).join('');
    const { rows, fast: _fast, ...state } = s;
    return { files, state, priceRows: rows.priceRows, paths };
  };
  return { fast: await run('fast', false), slow: await run('slow', true) };
}

describe('the fast path of the parser threads', () => {
  it('gives the rows, counts and problems of the slow path on random elements with quirks', async () => {
    const elements: Array<{ kind: ElementSlice['kind']; text: string; split?: boolean }> = [];
    for (let k = 0; k < 3000; k++) {
      const ws = spacing();
      quirky = chance(0.5);
      const kind = chance(0.4) ? 'rate' : 'in_network';
      let text = write(kind === 'rate' ? rate() : item(), ws);
      if (quirky && chance(0.1)) text = broken(text);
      elements.push({ kind, text, split: kind === 'in_network' && chance(0.1) });
    }
    const { fast, slow } = await spoolBoth(path.join(tmp, 'random'), elements);
    expect(fast.files).toEqual(slow.files);
    expect(fast.state).toEqual(slow.state);
    expect(fast.priceRows).toBe(slow.priceRows);
    // the quirks reach both outcomes: problems reported, rows written, and most elements fast
    expect(Object.keys(slow.state.counts)).toEqual(expect.arrayContaining(['invalid_json', 'unknown_enum', 'invalid_rate', 'missing_field']));
    expect(slow.files.raw_prices!.split('\n').length).toBeGreaterThan(3000);
    const share = fast.paths.filter((p) => p === 'fast').length / fast.paths.length;
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThan(0.9);
  });

  it('takes every element of the common shape, and the rows of a filtered-out item back', async () => {
    const rateOf = (expires: string): string => '{"provider_references":[1,22,690.64470],"negotiated_prices":[{"negotiated_type":"negotiated","negotiated_rate":123.40,' +
      '"expiration_date":"9999-12-31","service_code":["1"],"billing_class":"professional","billing_code_modifier":[]},' +
      `{"negotiated_type":"fee schedule","negotiated_rate":7,"expiration_date":"${expires}","service_code":["11","22"],` +
      '"billing_class":"both","billing_code_modifier":["26","TC"],"additional_information":"a, \\"b\\""}]}';
    const rateText = rateOf('2025-12-31');
    const itemText = (code: string): string => `{"negotiation_arrangement":"ffs","name":"Visit","billing_code_type":"CPT",` +
      `"billing_code_type_version":"2025","billing_code":"${code}","description":"Caf\u00e9","negotiated_rates":[${rateText},` +
      // the filtered-out item has a value of its own, coded then taken back with its rows
      `${code === '99999' ? rateOf('2030-01-01') : rateText}]}`;
    const elements = [
      { kind: 'in_network' as const, text: itemText('99213') },
      { kind: 'rate' as const, text: rateText },
      { kind: 'in_network' as const, text: itemText('99999') },
      { kind: 'in_network' as const, text: itemText('99214') },
    ];
    const { fast, slow } = await spoolBoth(path.join(tmp, 'common'), elements, (code) => code !== '99999');
    expect(fast.paths).toEqual(['fast', 'fast', 'fast', 'fast']);
    expect(fast.files).toEqual(slow.files);
    expect(fast.state).toEqual(slow.state);
    expect(fast.priceRows).toBe(slow.priceRows);
    expect(fast.state.items).toBe(2);
    // the value columns as codes (price-values.ts): 0-9 the CMS enum values every writer starts with
    // (negotiated types, billing classes, settings but `both`), then each new value as it comes
    // and a price's shape (billing class, negotiated type, service codes, modifiers, expiration date,
    // setting) as one code, whose raw_shapes row lists their codes
    expect(fast.files.raw_prices!.split('\n')[0]).toBe('3,0,0,0,1\x1f22\x1f690.64470,0,123.4,');
    expect(fast.files.raw_prices!.split('\n')[1]).toBe('3,0,0,1,1\x1f22\x1f690.64470,1,7,16');
    expect(fast.files.raw_shapes!.trimEnd().split('\n')).toEqual(['0,5:0:10:11:12:', '1,7:2:13:14:15:']);
    expect(fast.files.raw_values!.split('\n').slice(0, 17)).toEqual([
      '0,negotiated', '1,derived', '2,fee schedule', '3,percentage', '4,per diem', '5,professional', '6,institutional', '7,both',
      '8,inpatient', '9,outpatient', '10,01', '11,""', '12,9999-12-31', '13,"11,22"', '14,"26,TC"', '15,2025-12-31', '16,"a, ""b"""',
    ]);
    // the filtered-out item's value was taken back with its rows
    expect(fast.files.raw_values!.trimEnd().split('\n')).toHaveLength(17);
    expect(fast.files.raw_values).not.toContain('2030-01-01');
  });

  it('takes back rows already written out when it gives up past a full buffer', async () => {
    // one item of ~5 MB of prices (the spool's buffer is 1 MB) whose last rate names inline groups: slow path
    const p = '{"negotiated_type":"negotiated","negotiated_rate":10.5,"expiration_date":"9999-12-31","service_code":["11"],"billing_class":"professional"}';
    const r = `{"provider_references":[1,2],"negotiated_prices":[${Array(100).fill(p).join(',')}]}`;
    const inline = '{"provider_groups":[{"npi":[1234567893],"tin":{"type":"ein","value":"12-3456789"}}],"negotiated_prices":[' + p + ']}';
    const text = `{"negotiation_arrangement":"ffs","billing_code_type":"CPT","billing_code":"99213","negotiated_rates":[${Array(1000).fill(r).join(',')},${inline}]}`;
    const { fast, slow } = await spoolBoth(path.join(tmp, 'large'), [{ kind: 'in_network', text }, { kind: 'rate', text: r }]);
    expect(fast.paths).toEqual(['slow', 'fast']);
    expect(fast.files).toEqual(slow.files);
    expect(fast.priceRows).toBe(slow.priceRows);
    expect(fast.files.raw_prices!.length).toBeGreaterThan(2 << 20);
  });

  it('gives the same dataset as the slow path on real files and the CMS examples', async () => {
    const fixtures = path.join(__dirname, '..', 'fixtures', 'mrf');
    const files = ['uhc-ny-TEST_FILE.json.gz', 'carefirst-examplefile.json.gz', 'v2.2.0-in-network-rates-fee-for-service-single-plan-sample.json',
      'v2.2.0-in-network-rates-all-negotiated-types-sample.json', 'v1.3.1-in-network-rates-multiple-plans-sample.json',
      'v2.2.0-in-network-rates-capitation-single-plan-sample.json'];
    const dir = path.join(tmp, 'real');
    for (const f of files) await cp(path.join(fixtures, f), path.join(dir, f));
    await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({
      reference_insurer: 'a',
      insurers: [{ id: 'a', name: 'A', files: files.map((f, k) => ({ snapshot: `2025-0${1 + (k % 2)}`, url: path.join(dir, f) })) }],
    }));
    const convert = async (out: string, slow: boolean): Promise<{ sha: unknown; report: unknown }> => {
      if (slow) process.env.COMPETE_SLOW_PARSE = '1';
      try {
        const { manifest } = await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, out), { quiet: true, remoteReferences: false });
        const report = JSON.parse(await readFile(path.join(dir, out, 'report.json'), 'utf8')) as Record<string, unknown>;
        delete report.created_at;
        return { sha: Object.fromEntries(Object.entries(manifest.tables).map(([k, t]) => [k, t.sha256])), report };
      } finally {
        delete process.env.COMPETE_SLOW_PARSE;
      }
    };
    const fast = await convert('fast', false);
    const slow = await convert('slow', true);
    expect(fast).toEqual(slow);
  }, 120_000);
});
