import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONVERTER_ENV, CONVERTER_NODE_FLAGS } from '../../scripts/convert/cli/runtime-flags';

describe('the converter process settings', () => {
  it("package.json's convert script starts Node with every flag and variable the benchmark uses", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    const words = pkg.scripts.convert!.split(/\s+/);
    expect(CONVERTER_NODE_FLAGS.length).toBeGreaterThan(0);
    for (const flag of CONVERTER_NODE_FLAGS) expect(words).toContain(flag);
    for (const [k, v] of Object.entries(CONVERTER_ENV)) expect(words).toContain(`${k}=${v}`);
    // the flags go to Node, before the script's path
    expect(words.indexOf(CONVERTER_NODE_FLAGS[0]!)).toBeLessThan(words.indexOf('scripts/convert/cli/convert.ts'));
  });
});
