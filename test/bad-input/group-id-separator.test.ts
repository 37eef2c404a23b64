// Provider-group ids holding the spool's separator (U+001F) or its escape (U+001E) stay whole
// (scripts/convert/spool/group-ids.ts): a rate naming such an id is attributed to that group alone,
// not to the groups whose ids are its pieces, and the dataset is the same whether the parser
// threads take their fast path (scripts/convert/ingest/fast-rates.ts) or the slow one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { escapeGroupId, joinGroupIds, splitGroupIds } from '../../scripts/convert/spool/group-ids';
import { catalogOf, HEADER, item, makeWorkspace, price, runCli, type Workspace } from './harness';

let ws: Workspace;

beforeAll(async () => {
  ws = await makeWorkspace('group-id-separator');
});

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

/** A provider group (JSON text) of one provider: `id` as written in the file, the NPI and TIN that tell it apart. */
const group = (id: string, npi: number, tin: string): string =>
  `{"provider_group_id":${id},"provider_groups":[{"npi":[${npi}],"tin":{"type":"ein","value":"${tin}"}}]}`;

/**
 * The groups: `a<US>b` next to `a` and `b` (what a split on the separator would give), `c<RS>1`
 * (the escape of the separator, written in the file), and a plain number id.
 */
const GROUPS = [
  group('"a\\u001fb"', 1111111112, '100000001'),
  group('"a"', 2222222220, '100000002'),
  group('"b"', 3333333334, '100000003'),
  group('"c\\u001e1"', 1234567893, '100000004'),
  group('7', 1234567891, '100000005'),
];

/** The items: billing code, the rate's provider_references (JSON), its rate. */
const ITEMS: Array<[string, string, string]> = [
  ['99213', '[7]', '100'],
  ['99214', '["a\\u001fb"]', '12'],
  ['99215', '["a\\u001fb",7]', '13'],
  ['99216', '["c\\u001e1","a"]', '14'],
  ['99217', '["b","a"]', '15'],
];

const FILE = HEADER + `"provider_references":[${GROUPS.join(',')}],"in_network":[${ITEMS.map(([code, refs, rate]) => item(`"${code}"`, price(rate), refs)).join(',\n')}]}`;

/** The TINs of the groups each billing code's rate is attributed to, in the list's order; the tables' hashes. */
interface Converted {
  groups: Record<string, string[]>;
  ids: Record<string, string[]>;
  sha: Record<string, string>;
}

/** Converts FILE into `out`, the slow path only when `slow` (COMPETE_SLOW_PARSE, scripts/convert/ingest/parse-worker.ts). */
async function convert(out: string, slow: boolean): Promise<Converted> {
  await writeFile(path.join(ws.dir, 'groups.json'), FILE);
  const catalog = path.join(ws.dir, 'catalog-groups.json');
  await writeFile(catalog, JSON.stringify(catalogOf(['groups.json'])));
  if (slow) process.env.COMPETE_SLOW_PARSE = '1';
  try {
    const { code, stderr } = await runCli(['--catalog', catalog, '--out', out]);
    expect([code, stderr]).toEqual([0, '']);
  } finally {
    delete process.env.COMPETE_SLOW_PARSE;
  }
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const rates = path.join(out, 'rates', '*.parquet');
    const groups = path.join(out, 'provider_groups.parquet');
    const idRows = await con.runAndReadAll(`SELECT billing_code, provider_group_ids FROM '${rates}' ORDER BY billing_code`);
    const ids = Object.fromEntries(idRows.getRowObjectsJson().map((r) => [String(r.billing_code), r.provider_group_ids as string[]]));
    const tinRows = await con.runAndReadAll(`
      SELECT billing_code, list(g.tin_value ORDER BY pos) AS tins
      FROM (SELECT billing_code, source_id, unnest(provider_group_ids) AS provider_group_id, generate_subscripts(provider_group_ids, 1) AS pos FROM '${rates}') r
      JOIN '${groups}' g USING (source_id, provider_group_id)
      GROUP BY billing_code ORDER BY billing_code`);
    const byCode = Object.fromEntries(tinRows.getRowObjectsJson().map((r) => [String(r.billing_code), r.tins as string[]]));
    const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as { tables: Record<string, { sha256: string }> };
    return { groups: byCode, ids, sha: Object.fromEntries(Object.entries(manifest.tables).map(([k, t]) => [k, t.sha256])) };
  } finally {
    con.closeSync();
  }
}

describe('provider-group ids holding the spool separator', () => {
  it('join and split back whole, an id without either character as it is', () => {
    const ids = ['a\x1fb', 'c\x1e1', 'd\x1e0\x1f\x1e', '', 'plain', '\x1f'];
    expect(splitGroupIds(joinGroupIds(ids))).toEqual(ids);
    expect(joinGroupIds(['1', 'x y'])).toBe('1\x1fx y');
    expect(escapeGroupId('a\x1fb')).toBe('a\x1e1b');
  });

  it('a rate naming one is attributed to that group alone, the same on the fast and the slow path', async () => {
    const fast = await convert(path.join(ws.dir, 'fast'), false);
    expect(fast.ids).toEqual({
      99213: ['7'],
      99214: ['a\x1fb'],
      99215: ['a\x1fb', '7'],
      99216: ['c\x1e1', 'a'],
      99217: ['b', 'a'],
    });
    expect(fast.groups).toEqual({
      99213: ['100000005'],
      99214: ['100000001'],
      99215: ['100000001', '100000005'],
      99216: ['100000004', '100000002'],
      99217: ['100000003', '100000002'],
    });
    const slow = await convert(path.join(ws.dir, 'slow'), true);
    expect(slow).toEqual(fast);
  }, 240_000);
});
