// A worker module that imports a package (test/convert/module-worker.test.ts): no bundle can carry
// it, so it runs through tsx's loader.
import { parentPort, workerData } from 'node:worker_threads';
import { Command } from 'commander';
import { twice } from './twice';

parentPort!.postMessage({ got: twice(Number(workerData)), fromFile: (new Error().stack ?? '').includes('module-worker/echo-'), command: typeof Command });
