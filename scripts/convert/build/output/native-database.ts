/**
 * The worker's `Database` (workers/db/database.ts) on DuckDB's native client, for the converter's
 * first view (first-view.ts): the same SQL as the browser's DuckDB-WASM, run by native DuckDB
 * instead of compiling 6 MB of WebAssembly in the converter. The interface is synchronous and the
 * native client's calls return promises, so each call runs in a thread of its own
 * (native-database-thread.ts) while this one waits on a shared word (`Atomics.wait`) and then takes
 * the answer off its port (`receiveMessageOnPort`): tens of microseconds a call against the
 * milliseconds of a query.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { Database, ParquetInput, PlainValue } from '../../../../workers/db/database';
import { applyOfflineSettings } from '../../../../workers/db/boot-sql';
import { DatabaseError } from '../../../../workers/db/errors';
import type { SqlFragment } from '../../../../workers/db/sql';
import { startModuleWorker } from '../../common/module-worker';
import type { NativeCall, NativeColumns, NativeReply, NativeThreadData } from './native-database-thread';

interface Bridge {
  worker: Worker;
  port: MessagePort;
  done: Int32Array;
  /** Resolved once the thread has loaded its modules and serves calls; rejected when it fails to. */
  ready: Promise<void>;
}

/** The thread, started by the first database opened and kept for the process's life (it holds the process open only until it is ready). */
let bridge: Bridge | undefined;

function startBridge(): Bridge {
  const { port1, port2 } = new MessageChannel();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const data: NativeThreadData = { nativeDuckdb: { port: port2, done } };
  const worker = startModuleWorker('native-database-thread', import.meta.url, { workerData: data, transferList: [port2] });
  // the thread holds the process open only until it is ready: an `await ready` must not see the
  // process exit under it, a started thread must not keep it running
  const ready = new Promise<void>((resolve, reject) => {
    const settle = (failure?: DatabaseError): void => {
      // later errors are the process's, as before the thread was ready
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      worker.unref();
      if (failure) reject(failure);
      else resolve();
    };
    const onError = (e: Error): void => settle(new DatabaseError(`the native DuckDB thread failed to start: ${e.message}`));
    const onExit = (code: number): void => settle(new DatabaseError(`the native DuckDB thread exited (code ${code}) before it was ready`));
    // the thread's one message to its parent: it is ready
    const onMessage = (): void => settle();
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
  ready.catch(() => {});
  port1.unref();
  return { worker, port: port1, done, ready };
}

/** How long a woken caller looks for an answer that is not in the port yet, ms. */
const ANSWER_GRACE_MS = 1000;

/**
 * Runs one call in the thread of `b`, which is ready (its start is awaited, openNativeDatabase),
 * and waits for its answer. @throws DatabaseError with `what` and DuckDB's message
 */
function call(b: Bridge, what: string, c: NativeCall): NativeReply {
  Atomics.store(b.done, 0, 0);
  b.port.postMessage(c);
  Atomics.wait(b.done, 0, 0);
  let answer = receiveMessageOnPort(b.port)?.message as { reply: NativeReply } | { error: string } | undefined;
  // The thread posts its answer before it sets `done`, but Node does not document that a message
  // posted by another thread is in the port's queue the moment the flag is seen: on a loaded
  // machine the caller has woken before it. Look again, a millisecond at a time, for up to a second.
  for (let i = 0; !answer && i < ANSWER_GRACE_MS; i++) {
    Atomics.wait(b.done, 0, 1, 1);
    answer = receiveMessageOnPort(b.port)?.message as typeof answer;
  }
  if (!answer) throw new DatabaseError(`${what}: the native DuckDB thread woke without an answer`);
  if ('error' in answer) throw new DatabaseError(`${what}: ${answer.error}`);
  return answer.reply;
}

/** The rows of a column-wise result, keys in column order (as database.ts makes them). */
function rowsOf<Row>({ names, values }: NativeColumns): Row[] {
  const count = values[0]?.length ?? 0;
  const rows: Array<Record<string, PlainValue>> = [];
  for (let i = 0; i < count; i++) {
    const row: Record<string, PlainValue> = {};
    for (let c = 0; c < names.length; c++) row[names[c]!] = values[c]![i]!;
    rows.push(row);
  }
  return rows as Row[];
}

/**
 * Opens an in-memory native DuckDB on one thread, with DuckDB-WASM's offline settings (boot-sql.ts).
 * @throws DatabaseError when DuckDB or its thread cannot start.
 */
export async function openNativeDatabase(): Promise<Database> {
  // the thread's start (its modules and DuckDB's native library, most of a second) is awaited, not
  // waited on: the caller's event loop runs on meanwhile (first-view.ts opens this early in a build)
  const b = (bridge ??= startBridge());
  try {
    await b.ready;
  } catch (e) {
    // the next open starts another thread
    if (bridge === b) bridge = undefined;
    throw e;
  }
  const db = call(b, 'cannot open native DuckDB', { op: 'open' }) as number;
  const database: Database = {
    all<Row extends Record<string, PlainValue>>(query: SqlFragment): Row[] {
      return rowsOf<Row>(call(b, 'query failed', { op: 'all', db, text: query.text, params: query.params }) as NativeColumns);
    },
    exec(query: SqlFragment): void {
      if (query.params.length > 0) throw new DatabaseError('exec takes no parameters');
      call(b, 'statement failed', { op: 'exec', db, text: query.text });
    },
    insertArrowIpc(name: string, ipc: Uint8Array, append: boolean): void {
      call(b, `loading table ${name} failed`, { op: 'insert', db, name, ipc, append });
    },
    insertParquet(name: string, parquet: ParquetInput, append: boolean): void {
      call(b, `loading table ${name} failed`, { op: 'insertParquet', db, name, parquet, append });
    },
    close(): void {
      call(b, 'close failed', { op: 'close', db });
    },
  };
  applyOfflineSettings(database);
  return database;
}
