// A worker module that imports node builtins only (test/convert/module-worker.test.ts): it answers
// its workerData doubled, whether its code runs from its file (tsx) rather than from the bundle, and
// the Node options its thread was given.
import { parentPort, workerData } from 'node:worker_threads';
import { createHash } from 'node:crypto';
import { twice } from './twice';

parentPort!.postMessage({ got: twice(Number(workerData)), fromFile: (new Error().stack ?? '').includes('module-worker/echo-'), hash: createHash('sha256').update('x').digest('hex').slice(0, 8), execArgv: process.execArgv });
