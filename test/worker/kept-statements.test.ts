/**
 * The prepared statements databaseOf keeps by SQL text (workers/db/database.ts KEPT_STATEMENTS), on
 * DuckDB-WASM's Node build: a text asked again is not planned again, its answers follow the
 * parameters and tables replaced since, and the least recently used statement is closed past the limit.
 */
import { describe, expect, it } from 'vitest';
import { databaseOf, KEPT_STATEMENTS, type DuckConnectionLike } from '../../workers/db/database';
import { openNodeConnection } from '../../workers/db/open-node';
import { sql, SqlFragment } from '../../workers/db/sql';

/** A connection that counts the statements it prepares and closes. */
async function countingConnection(): Promise<{ conn: DuckConnectionLike; prepared: string[]; closed: string[] }> {
  const inner = await openNodeConnection();
  const prepared: string[] = [];
  const closed: string[] = [];
  const conn: DuckConnectionLike = {
    query: (text) => inner.query(text),
    insertArrowFromIPCStream: (buffer, options) => inner.insertArrowFromIPCStream(buffer, options),
    close: () => inner.close(),
    prepare: (text) => {
      prepared.push(text);
      const stmt = inner.prepare(text);
      return { query: (...params) => stmt.query(...params), close: () => (closed.push(text), stmt.close()) };
    },
  };
  return { conn, prepared, closed };
}

describe('kept prepared statements', () => {
  it('plan a text once, answer each call with its own parameters, and see a table replaced since', async () => {
    const { conn, prepared } = await countingConnection();
    const db = databaseOf(conn);
    db.all(sql`CREATE TABLE t AS SELECT range AS n FROM range(10)`);
    const below = (n: number) => db.all<{ c: number }>(sql`SELECT count(*)::INTEGER AS c FROM t WHERE n < ${n}`)[0]!.c;
    expect([below(3), below(7), below(3)]).toEqual([3, 7, 3]);
    expect(prepared.filter((t) => t.startsWith('SELECT count(*)'))).toHaveLength(1);
    // the table replaced under the kept statement: DuckDB binds it again, the answer is the new table's
    db.all(sql`DROP TABLE t`);
    db.all(sql`CREATE TABLE t AS SELECT range * 10 AS n FROM range(10)`);
    expect(below(35)).toBe(4);
    db.close();
  });

  it(`close the least recently used past ${KEPT_STATEMENTS}, and every kept one when forgotten or at close`, async () => {
    const { conn, prepared, closed } = await countingConnection();
    const db = databaseOf(conn);
    // a text of its own for each number
    const ask = (i: number) => db.all<{ v: number }>(new SqlFragment(`SELECT ${i} AS v`, []))[0]!.v;
    for (let i = 0; i < KEPT_STATEMENTS; i++) expect(ask(i)).toBe(i);
    expect(ask(0)).toBe(0); // used again: now the most recent
    expect(ask(KEPT_STATEMENTS)).toBe(KEPT_STATEMENTS); // one past the limit: statement 1 goes
    expect(closed).toEqual(['SELECT 1 AS v']);
    expect(ask(0)).toBe(0);
    expect(prepared).toHaveLength(KEPT_STATEMENTS + 1);
    expect(ask(1)).toBe(1); // planned again
    expect(prepared).toHaveLength(KEPT_STATEMENTS + 2);
    expect(closed).toEqual(['SELECT 1 AS v', 'SELECT 2 AS v']);
    // forgetting closes every kept one; the next ask plans again
    db.forgetStatements!();
    expect(closed).toHaveLength(2 + KEPT_STATEMENTS);
    expect(ask(1)).toBe(1);
    expect(prepared).toHaveLength(KEPT_STATEMENTS + 3);
    db.close();
    expect(closed).toHaveLength(3 + KEPT_STATEMENTS);
  });
});
