/**
 * What a vitest global setup makes once for a whole run of several projects. Vitest calls a
 * global setup once per project (and once for the root config), all in its main process: the first
 * call makes the value, later calls share it, and the teardown of the last project to end
 * disposes of it. Used by test/unit-setup.ts and test/e2e/setup.ts.
 */

interface Entry<T> {
  value: Promise<T>;
  /** Projects that hold the value and have not torn down yet. */
  holders: number;
}

/**
 * The value under `key` for this run: `make()` on the first call, the same promise afterwards.
 * Returns it with the teardown the calling project must return; when the last holder's teardown
 * runs, `dispose(value)` runs and the next call makes a new value. Rejects as `make` does (and
 * forgets the failed value, so that each project reports the failure).
 */
export async function oncePerRun<T>(key: string, make: () => Promise<T>, dispose: (value: T) => Promise<void>): Promise<{ value: T; teardown: () => Promise<void> }> {
  const symbol = Symbol.for(`compete.once-per-run.${key}`);
  const g = globalThis as { [k: symbol]: Entry<T> | undefined };
  const entry = (g[symbol] ??= { value: make(), holders: 0 });
  entry.holders += 1;
  let value: T;
  try {
    value = await entry.value;
  } catch (error) {
    entry.holders -= 1;
    if (g[symbol] === entry) delete g[symbol];
    throw error;
  }
  let released = false;
  return {
    value,
    teardown: async () => {
      if (released) return;
      released = true;
      entry.holders -= 1;
      if (entry.holders > 0) return;
      if (g[symbol] === entry) delete g[symbol];
      await dispose(value);
    },
  };
}
