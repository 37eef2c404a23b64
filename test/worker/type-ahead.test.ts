/**
 * The shared type-ahead SQL (workers/api/type-ahead-sql.ts): no request value in the SQL text, and
 * the rule it gives `GET /api/providers` and `GET /api/services-search` (product spec section 5,
 * search matching: prefix matches first, then by name; the total of every match) over tables
 * written straight into DuckDB. Every expected list is worked out by hand from the rows below.
 * providers-for-service, over the converted fixture: live-endpoints.test.ts.
 */
import { memoryContext } from './memory-context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderSearchResult, ServicesSearch } from '../../contract/api';
import type { ApiContext } from '../../workers/context';
import { dispatch } from '../../workers/api/registry';
import { typeAheadSql } from '../../workers/api/type-ahead-sql';
import type { Database } from '../../workers/db/database';
import { openNodeDatabase } from '../../workers/db/open-node';
import { sql, SqlFragment } from '../../workers/db/sql';

/** (provider_id, name, npi, state). */
const PROVIDERS: Array<[string, string | null, string | null, string | null]> = [
  ['3000000001', 'Bay Clinic', '3000000001', 'CA'],
  // The same name but for case: ties by id, so 2000000002 comes before 3000000001.
  ['2000000002', 'BAY CLINIC', '2000000002', 'NY'],
  ['1000000003', 'Abbott Health', '1000000003', 'CA'],
  // No registry entry: named by its id.
  ['TIN:555', null, null, null],
  ['4000000004', 'Zeta Lab', '4000000004', 'NY'],
  ['5000000005', 'Zed Jones', '5000000005', 'NY'],
];

/** (code, type, name, category, description, keywords). */
const SERVICES: Array<[string, string, string, string, string, string]> = [
  ['99213', 'CPT', 'Office visit', 'Office visit', '', ''],
  ['B4034', 'HCPCS', 'Enteral feeding kit', 'Supplies', '', ''],
  ['80053', 'CPT', 'Metabolic panel', 'Lab', 'Blood chemistry', ''],
  ['70551', 'CPT', 'Brain MRI', 'Radiology', '', ''],
  ['45378', 'CPT', 'Colonoscopy', 'Gastro', '', 'scope;bowel'],
  // Not CPT/HCPCS: never listed, nor counted.
  ['L0001', 'LOCAL', 'Bone local', 'Lab', '', ''],
];

let db: Database;
let ctx: ApiContext;

const lit = (v: string | null): string => (v === null ? 'NULL' : `'${v.replaceAll("'", "''")}'`);
const values = (rows: ReadonlyArray<ReadonlyArray<string | null>>): string => rows.map((r) => `(${r.map(lit).join(', ')})`).join(', ');

beforeAll(async () => {
  db = await openNodeDatabase();
  db.exec(new SqlFragment(`CREATE TABLE providers (provider_id VARCHAR, name VARCHAR, npi VARCHAR, state VARCHAR)`, []));
  db.exec(new SqlFragment(`INSERT INTO providers VALUES ${values(PROVIDERS)}`, []));
  db.exec(new SqlFragment('CREATE TABLE services (billing_code VARCHAR, billing_code_type VARCHAR, name VARCHAR, category VARCHAR, description VARCHAR, keywords VARCHAR, published_name VARCHAR)', []));
  db.exec(new SqlFragment(`INSERT INTO services VALUES ${values(SERVICES.map((s) => [...s, null]))}`, []));
  ctx = memoryContext(db, 'type-ahead');
});
afterAll(() => db?.close());

async function get<T>(path: string, query: Record<string, string>): Promise<T> {
  const res = await dispatch({ method: 'GET', path, query }, ctx);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
}

const ids = (r: { items: Array<{ id: string }> }): string[] => r.items.map((x) => x.id);

describe('typeAheadSql', () => {
  it('puts q, the limit and the fragments\' values in parameters, never in the text', () => {
    const evil = "x' OR 1=1 --";
    const { query } = typeAheadSql<{ id: string; name: string; state: string | null }>({
      from: sql`providers`, where: sql`state = ${'CA'}`, id: sql`provider_id`, name: sql`name`,
      columns: { state: sql`state` }, ties: 'id', q: evil, limit: 7,
    });
    expect(query.text).not.toContain(evil);
    expect(query.text).not.toContain('CA');
    expect(query.params).toContain(evil);
    expect(query.params).toContain('CA');
    expect(query.params.at(-1)).toBe(7);
  });

  it('takes output column names only as plain identifiers other than its own', () => {
    const spec = { from: sql`t`, id: sql`a`, name: sql`b`, ties: 'id', q: '', limit: 1 } as const;
    expect(() => typeAheadSql<{ id: string; name: string; 'x" --': string }>({ ...spec, columns: { 'x" --': sql`c` } })).toThrow('type-ahead column not allowed');
    expect(() => typeAheadSql<{ id: string; name: string; total: number }>({ ...spec, columns: { total: sql`c` } })).toThrow('type-ahead column not allowed');
  });
});

describe('the rule through the endpoints', () => {
  it('providers: prefix matches (name or id) first, then by name, then by id; the total of every match', async () => {
    // 'b': 'BAY CLINIC' and 'Bay Clinic' start with it (equal but for case: by id); 'Abbott Health' and 'Zeta Lab'
    // only hold it, so come after although 'Abbott' sorts first.
    const b = await get<ProviderSearchResult>('/api/providers', { q: 'b' });
    expect(ids(b)).toEqual(['2000000002', '3000000001', '1000000003', '4000000004']);
    expect(b.total).toBe(4);
    expect(await get<ProviderSearchResult>('/api/providers', { q: 'B', limit: '1' })).toEqual({
      items: [{ id: '2000000002', name: 'BAY CLINIC', npi: '2000000002', state: 'NY' }], total: 4,
    });
    // '5': the id 5000000005 starts with it ('Zed Jones'); 'TIN:555' (named by its id) only holds it.
    const five = await get<ProviderSearchResult>('/api/providers', { q: '5' });
    expect(five).toEqual({
      items: [
        { id: '5000000005', name: 'Zed Jones', npi: '5000000005', state: 'NY' },
        { id: 'TIN:555', name: 'TIN:555', npi: null, state: null },
      ],
      total: 2,
    });
    // Without q: every provider by name (the comparison's Available Providers is this total at limit=1).
    const all = await get<ProviderSearchResult>('/api/providers', { limit: '1' });
    expect(all).toEqual({ items: [{ id: '1000000003', name: 'Abbott Health', npi: '1000000003', state: 'CA' }], total: 6 });
    expect(ids(await get<ProviderSearchResult>('/api/providers', {}))).toEqual(
      ['1000000003', '2000000002', '3000000001', 'TIN:555', '5000000005', '4000000004']);
    expect(await get<ProviderSearchResult>('/api/providers', { q: "' OR 1=1 --" })).toEqual({ items: [], total: 0 });
  });

  it('services-search: prefix matches (name or code) first, then by name; the total of every CPT/HCPCS match', async () => {
    // 'b': 'Brain MRI' (name) and B4034 (code) start with it; 'Colonoscopy' (keyword 'bowel') and
    // 'Metabolic panel' (name, description) only hold it, so come after although 'Colonoscopy' sorts before 'Enteral'.
    // L0001 'Bone local' would be a prefix match, but is no CPT/HCPCS code.
    const b = await get<ServicesSearch>('/api/services-search', { q: 'b' });
    expect(ids(b)).toEqual(['70551', 'B4034', '45378', '80053']);
    expect(b.total).toBe(4);
    const two = await get<ServicesSearch>('/api/services-search', { q: 'b', limit: '2' });
    expect([ids(two), two.total]).toEqual([['70551', 'B4034'], 4]);
    // Without q, limit 1: the first service by name and the number of services (the comparison's Available Services).
    expect(await get<ServicesSearch>('/api/services-search', { limit: '1' })).toEqual({
      items: [{ id: '70551', name: 'Brain MRI', billing_code_type: 'CPT', category: 'Radiology' }], total: 5,
    });
    // A code as q (how a screen names a service its URL gives): the service itself is among the answers.
    expect(ids(await get<ServicesSearch>('/api/services-search', { q: '80053' }))).toEqual(['80053']);
  });
});
