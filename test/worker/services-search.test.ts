/**
 * `GET /api/services-search` (workers/api/services-search.ts) over a `services` table written straight
 * into DuckDB: the product spec's matching (section 5: case-insensitive substring of name, code,
 * category, description and keywords; prefix matches first, then by name, then code), the total,
 * the limit's bounds, and the answer's speed at 20,000 services. Every expected list is worked out
 * by hand from SERVICES below.
 */
import { memoryContext } from './memory-context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody, ServicesSearch } from '../../contract/api';
import type { ApiContext } from '../../workers/context';
import { dispatch } from '../../workers/api/registry';
import type { Database } from '../../workers/db/database';
import { openNodeDatabase } from '../../workers/db/open-node';
import { SqlFragment } from '../../workers/db/sql';

/** (code, type, name, category, description, keywords). */
type Service = [string, string, string | null, string, string, string];

const SERVICES: Service[] = [
  ['99213', 'CPT', 'Office visit established 15 min', 'Office visit', 'Established patient office visit', 'office;visit'],
  ['99214', 'CPT', 'office visit established 30 min', 'Office visit', 'Established patient office visit', ''],
  ['70450', 'CPT', 'CT head without contrast', 'Radiology', 'Computed tomography of the head', 'ct;head'],
  ['70551', 'CPT', 'MRI brain without dye', 'Radiology', 'Magnetic resonance imaging', 'mri'],
  ['80053', 'CPT', 'Comprehensive metabolic panel', 'Lab', 'Blood chemistry panel', 'lab;cmp'],
  ['G0008', 'HCPCS', 'Flu vaccine administration', 'Vaccines', 'Administration of influenza vaccine', 'flu;shot'],
  ['J1100', 'HCPCS', 'Dexamethasone sodium phosphate', 'Drugs', 'Injection, 1 mg', 'steroid'],
  ['A0428', 'HCPCS', 'Ambulance service, basic life support', 'Transport', 'Non-emergency transport', 'ambulance'],
  // Same name as 99213 but upper-cased: ties by name (case-insensitive) fall back to the code.
  ['99212', 'CPT', 'OFFICE VISIT ESTABLISHED 15 MIN', 'Office visit', '', ''],
  // A code type outside CPT/HCPCS is never listed (as in service-names).
  ['0001U', 'LOCAL', 'Office local code', 'Lab', '', ''],
];

let db: Database;
let ctx: ApiContext;

function fill(into: Database, rows: Service[]): void {
  into.exec(new SqlFragment('CREATE OR REPLACE TABLE services (billing_code VARCHAR, billing_code_type VARCHAR, name VARCHAR, category VARCHAR, description VARCHAR, keywords VARCHAR, published_name VARCHAR)', []));
  const lit = (v: string | null): string => (v === null ? 'NULL' : `'${v.replaceAll("'", "''")}'`);
  into.exec(new SqlFragment(`INSERT INTO services VALUES ${rows.map((r) => `(${[...r, null].map(lit).join(', ')})`).join(', ')}`, []));
}

beforeAll(async () => {
  db = await openNodeDatabase();
  fill(db, SERVICES);
  ctx = memoryContext(db, 'services-search');
});
afterAll(() => db?.close());

async function search(query: Record<string, string>): Promise<ServicesSearch> {
  const res = await dispatch({ method: 'GET', path: '/api/services-search', query }, ctx);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ServicesSearch;
}

const ids = (r: ServicesSearch): string[] => r.items.map((s) => s.id);

describe('services-search', () => {
  it('lists the first 10 services by name, then code, with the full total, when q is absent or blank', async () => {
    // By lower(name): ambulance, comprehensive, ct, dexamethasone, flu, mri, office..15 (99212 'OFFICE' before
    // 99213 'Office' by name, then code), office..30.
    const all = ['A0428', '80053', '70450', 'J1100', 'G0008', '70551', '99212', '99213', '99214'];
    const none = await search({});
    expect(ids(none)).toEqual(all);
    expect(none.total).toBe(9);
    expect(await search({ q: '   ' })).toEqual(none);
    expect(ids(await search({ limit: '3' }))).toEqual(all.slice(0, 3));
    expect((await search({ limit: '3' })).total).toBe(9);
  });

  it('answers the item shape of service-names', async () => {
    const r = await search({ q: 'g0008' });
    expect(r).toEqual({ total: 1, items: [{ id: 'G0008', name: 'Flu vaccine administration', billing_code_type: 'HCPCS', category: 'Vaccines' }] });
  });

  it('puts prefix matches (name or code) first, then sorts by name', async () => {
    // 'ct': the prefix of 'CT head' (70450), and inside J1100's description 'Injection'.
    expect(ids(await search({ q: 'ct' }))).toEqual(['70450', 'J1100']);
    // 'F': 'Flu' (G0008) starts with it, so comes first though 'CT' sorts before it; then the substrings by name:
    // 'life' in A0428's name, 'of' in 70450's description, 'Office' (99212 and 99213 by code on the same name, then 99214).
    expect(ids(await search({ q: 'F' }))).toEqual(['G0008', 'A0428', '70450', '99212', '99213', '99214']);
    // '99': the codes 99212, 99213, 99214 start with it: by name, then code.
    expect(ids(await search({ q: '99' }))).toEqual(['99212', '99213', '99214']);
    // 'in': nothing starts with it; inside 'Injection' (J1100), 'vaccine' (G0008), 'brain' (70551), 'min' (99212..99214).
    const inside = await search({ q: 'in' });
    expect(ids(inside)).toEqual(['J1100', 'G0008', '70551', '99212', '99213', '99214']);
    expect(inside.total).toBe(6);
  });

  it('matches the code, category, description and keywords case-insensitively, q trimmed', async () => {
    expect(ids(await search({ q: ' j11 ' }))).toEqual(['J1100']); // code
    expect(ids(await search({ q: 'RADIOLOGY' }))).toEqual(['70450', '70551']); // category
    expect(ids(await search({ q: 'tomography' }))).toEqual(['70450']); // description
    expect(ids(await search({ q: 'steroid' }))).toEqual(['J1100']); // keywords
    expect(ids(await search({ q: 'cmp' }))).toEqual(['80053']); // keywords
    expect(await search({ q: 'no such service' })).toEqual({ items: [], total: 0 });
    // Quotes and SQL are text, not SQL.
    expect(await search({ q: "' OR 1=1 --" })).toEqual({ items: [], total: 0 });
  });

  it('pages: limit cuts the items, total counts every match', async () => {
    const r = await search({ q: 'office', limit: '2' });
    expect(ids(r)).toEqual(['99212', '99213']);
    expect(r.total).toBe(3);
    expect((await search({ q: 'office', limit: '100' })).total).toBe(3);
  });

  it.each(['0', '101', '-1', '1.5', 'ten', '1e2'])('answers limit=%s with 400', async (limit) => {
    const res = await dispatch({ method: 'GET', path: '/api/services-search', query: { q: 'a', limit } }, ctx);
    expect(res.status).toBe(400);
    const message = `invalid limit: ${limit}`;
    expect(res.body as ApiErrorBody).toEqual({ message, error: { code: 'bad_request', message } });
  });

  it('keeps the order and total exact over 20,000 services', async () => {
    const big = await openNodeDatabase();
    try {
      // Codes S00000..S19999, names 'Service <code>', every 1000th with category 'Rare': 20 of them.
      big.exec(new SqlFragment(`CREATE TABLE services AS SELECT printf('S%05d', i) AS billing_code, 'HCPCS' AS billing_code_type,
        printf('Service %05d', 19999 - i) AS name, CASE WHEN i % 1000 = 0 THEN 'Rare' ELSE 'Common' END AS category,
        '' AS description, '' AS keywords, NULL::VARCHAR AS published_name FROM range(20000) t(i)`, []));
      const at = { ...ctx, db: big };
      const get = async (query: Record<string, string>) => (await dispatch({ method: 'GET', path: '/api/services-search', query }, at)).body as ServicesSearch;
      const rare = await get({ q: 'rare' });
      const blank = await get({});
      const code = await get({ q: 's1999' });
      // 'rare': i = 0, 1000, ..., 19000; names 'Service 19999', ..., 'Service 00999': by name, i = 19000 first.
      expect(rare.total).toBe(20);
      expect(ids(rare)).toEqual(Array.from({ length: 10 }, (_, k) => `S${String(19000 - 1000 * k).padStart(5, '0')}`));
      expect(blank.total).toBe(20000);
      expect(blank.items[0]).toEqual({ id: 'S19999', name: 'Service 00000', billing_code_type: 'HCPCS', category: 'Common' });
      // 's1999': prefix of codes S19990..S19999 (names 'Service 00009'..'Service 00000': by name S19999 first).
      expect(code.total).toBe(10);
      expect(ids(code)[0]).toBe('S19999');
    } finally {
      big.close();
    }
  });
});
