/** A module of the worker's own (test/convert/module-worker.test.ts): the bundle carries it. */
export const twice = (n: number): number => 2 * n;
