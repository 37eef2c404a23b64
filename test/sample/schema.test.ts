/**
 * Every generated in-network file is valid against the CMS JSON Schema of the version it claims
 * (test/fixtures/schemas/<tag>, copied from CMSgov/price-transparency-guide); v2.0.0 files also
 * against the current schema (v2.2.0, stricter NPI/EIN/place-of-service patterns).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSample } from '../../scripts/sample/index';
import { readCatalog, readInNetwork } from './read-sample';

const SCHEMAS = join(__dirname, '..', 'fixtures', 'schemas');

function validator(tag: string): ValidateFunction {
  // One Ajv per schema: v2.0.0 and v2.2.0 share the same $id.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, tag, 'in-network-rates.json'), 'utf8')) as object);
}

describe('sample in-network files against the CMS schemas', () => {
  let root = '';
  let dir = '';
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sample-schema-'));
    dir = join(root, 'sample');
    await generateSample(dir);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('validates every file with zero errors, and uses every version and layout', () => {
    const validators = new Map(['v1.0.0', 'v1.3.1', 'v2.0.0', 'v2.2.0'].map((t) => [t, validator(t)]));
    const versions = new Set<string>();
    let files = 0;
    let inline = 0;
    let tinOnly = 0;
    for (const ins of readCatalog(dir).insurers) {
      for (const f of ins.files) {
        const json = readInNetwork(join(dir, f.url));
        versions.add(json.version);
        const tags = json.version === '2.0.0' ? ['v2.0.0', 'v2.2.0'] : [`v${json.version}`];
        for (const tag of tags) {
          const validate = validators.get(tag);
          expect(validate, `no schema for ${json.version}`).toBeDefined();
          const ok = validate?.(json);
          expect(validate?.errors ?? [], `${f.url} against ${tag}`).toEqual([]);
          expect(ok).toBe(true);
        }
        const text = JSON.stringify(json);
        if (text.includes('"provider_groups":[{"npi"') && !json.provider_references) inline++;
        if (text.includes('"npi":[0]')) tinOnly++;
        files++;
      }
    }
    expect(files).toBe(40); // 10 insurers x 4 snapshots
    expect([...versions].sort()).toEqual(['1.0.0', '1.3.1', '2.0.0']);
    expect(inline).toBeGreaterThan(0);
    expect(tinOnly).toBeGreaterThan(0);
  });

  it('rejects a broken file (the validators are not vacuous)', () => {
    const catalog = readCatalog(dir);
    const v2 = readInNetwork(join(dir, catalog.insurers.find((i) => i.id === 'aetna')?.files[0]?.url ?? ''));
    const price = v2.in_network[0]?.negotiated_rates[0]?.negotiated_prices[0] as unknown as Record<string, unknown>;
    delete price.setting; // required since 2.0.0
    expect(validator('v2.0.0')(v2)).toBe(false);
    const v1 = readInNetwork(join(dir, catalog.insurers.find((i) => i.id === 'kaiser')?.files[0]?.url ?? ''));
    (v1.in_network[0]?.negotiated_rates[0]?.negotiated_prices[0] as unknown as Record<string, unknown>).billing_class = 'both'; // not in the 1.0.0 enum
    expect(validator('v1.0.0')(v1)).toBe(false);
  });
});
