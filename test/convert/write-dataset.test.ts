/**
 * The task runner of the last phase (write-dataset.ts): two connections take the
 * tasks in order; a task that DuckDB could not fit in its memory beside another runs again alone at
 * the end; any other failure stops the phase. The end-to-end result of the phase (same tables as
 * the sequential way) is checked in code-buckets.test.ts and reproducible.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { isOutOfMemory, runTasks, type Task } from '../../scripts/convert/build/output/write-dataset';
import { onOneThread } from '../../scripts/convert/build/output/write-parquet';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('runTasks', () => {
  it('runs every task once, both connections at work', async () => {
    const log: string[] = [];
    const tasks: Array<Task<string>> = [0, 1, 2, 3, 4].map((i) => async (c) => { await tick(); log.push(`${i}@${c}`); });
    await runTasks(['a', 'b'], tasks, () => false);
    expect(log.map((l) => l.split('@')[0]).sort()).toEqual(['0', '1', '2', '3', '4']);
    expect(new Set(log.map((l) => l.split('@')[1]))).toEqual(new Set(['a', 'b']));
  });

  it('runs a task that ran out of memory again, alone, on the first connection after all others', async () => {
    const log: string[] = [];
    let tries = 0;
    const oom = new Error('Out of Memory Error: failed to pin block of size 256.0 KiB');
    const tasks: Array<Task<string>> = [
      async (c) => { await tick(); log.push(`0@${c}`); },
      async (c) => { tries++; await tick(); if (tries === 1) throw oom; log.push(`1@${c}`); },
      async (c) => { await tick(); await tick(); log.push(`2@${c}`); },
      async (c) => { await tick(); log.push(`3@${c}`); },
    ];
    await runTasks(['a', 'b'], tasks, isOutOfMemory);
    expect(tries).toBe(2);
    expect(log.at(-1)).toBe('1@a');
    expect(log.slice(0, -1).map((l) => l.split('@')[0]).sort()).toEqual(['0', '2', '3']);
  });

  it('on any other failure starts no new task, lets the running one end, and throws', async () => {
    const log: string[] = [];
    const tasks: Array<Task<string>> = [
      async () => { await tick(); throw new Error('Binder Error: no such column'); },
      async () => { await tick(); await tick(); await tick(); log.push('1 ended'); },
      async () => { log.push('2 started'); },
      async () => { log.push('3 started'); },
    ];
    await expect(runTasks(['a', 'b'], tasks, isOutOfMemory)).rejects.toThrow('Binder Error: no such column');
    expect(log).toEqual(['1 ended']);
  });

  it('a retried task that fails again is thrown', async () => {
    const oom = new Error('Out of Memory Error: could not allocate');
    await expect(runTasks(['a', 'b'], [async () => { throw oom; }], isOutOfMemory)).rejects.toBe(oom);
  });
});

describe('isOutOfMemory', () => {
  it("recognises DuckDB's own out-of-memory error and nothing else", async () => {
    const db = await DuckDBInstance.create(':memory:', { memory_limit: '8MB', threads: '1' });
    const con = await db.connect();
    let error: unknown;
    try {
      await con.run('SELECT list(i) FROM range(20000000) t(i)');
    } catch (e) {
      error = e;
    }
    con.closeSync();
    db.closeSync();
    expect(isOutOfMemory(error)).toBe(true);
    expect(isOutOfMemory(new Error('IO Error: No files found'))).toBe(false);
    expect(isOutOfMemory('Out of Memory Error')).toBe(false);
  });
});

describe('onOneThread', () => {
  it('runs the work on one thread with caching operators off on every connection, then restores both', async () => {
    // enable_caching_operators is a connection's own setting: set on the first connection only, the
    // second copied its rates parts with caching operators, which reorder rows behind a join
    const db = await DuckDBInstance.create(':memory:', { threads: '2' });
    const a = await db.connect();
    const b = await db.connect();
    const settings = async (c: typeof a): Promise<unknown[]> =>
      (await c.runAndReadAll(`SELECT current_setting('threads'), current_setting('enable_caching_operators')`)).getRows()[0]!;
    let inside: unknown[][] = [];
    await onOneThread([a, b], async () => { inside = [await settings(a), await settings(b)]; });
    expect(inside).toEqual([[1n, false], [1n, false]]);
    expect([await settings(a), await settings(b)]).toEqual([[2n, true], [2n, true]]);
    await expect(onOneThread([a, b], async () => { throw new Error('work failed'); })).rejects.toThrow('work failed');
    expect([await settings(a), await settings(b)]).toEqual([[2n, true], [2n, true]]);
    a.closeSync();
    b.closeSync();
  });
});
