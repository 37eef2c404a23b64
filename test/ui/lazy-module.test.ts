// src/components/lazy-module.ts: a chunk a screen loads behind its first figures is imported once,
// and a failed import is a state the screen shows, not an unhandled rejection.
import { describe, expect, it } from 'vitest';
import { lazyModule } from '../../src/components/lazy-module';

describe('lazyModule', () => {
  it('imports on the first load only, and reports the module when it is in', async () => {
    let imports = 0;
    const lazy = lazyModule(async () => {
      imports++;
      return { answer: 42 };
    });
    expect(imports).toBe(0);
    expect(lazy.state()).toEqual({ status: 'loading' });
    const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
    expect(a).toBe(b);
    expect(imports).toBe(1);
    expect(lazy.state()).toEqual({ status: 'ready', module: { answer: 42 } });
  });

  it('reports a failed import with its message', async () => {
    const lazy = lazyModule(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')));
    await expect(lazy.load()).rejects.toThrow('Failed to fetch');
    expect(lazy.state()).toEqual({ status: 'error', message: 'Failed to fetch dynamically imported module: /assets/x.js' });
  });
});
