/**
 * Collects the root scalar fields of an in-network-rates file (the CMS schema's root object)
 * wherever they sit in the root object, and builds the `MrfHeader` once the file has been read.
 */
import { describe, report, type ElementContext } from './normalize-context.js';
import type { MrfHeader } from './types.js';

/** Root keys kept for the header. */
export const HEADER_KEYS: ReadonlySet<string> = new Set([
  'reporting_entity_name',
  'reporting_entity_type',
  'last_updated_on',
  'version',
  'plan_name',
  'plan_id_type',
  'plan_id',
  'plan_market_type',
]);

/** Accumulates header values as the scanner finds them. */
export class HeaderFields {
  private readonly values = new Map<string, string>();

  /**
   * Records the raw bytes of a root value. Strings are kept as published, numbers and booleans as
   * their token text (a `plan_id` written as a number keeps its digits); null/objects/arrays are
   * ignored with an `invalid_field` problem.
   */
  add(ctx: ElementContext, key: string, bytes: Buffer): void {
    const raw = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      report(ctx, 'invalid_json', `$.${key}`, `root value is not JSON: ${(e as Error).message}`);
      return;
    }
    if (typeof value === 'string') this.values.set(key, value);
    else if (typeof value === 'number' || typeof value === 'boolean') this.values.set(key, raw.trim());
    else report(ctx, 'invalid_field', `$.${key}`, `root field is not a string: ${describe(value)}; ignored`);
  }

  /** The header; missing `reporting_entity_name`/`reporting_entity_type` give '' and a `missing_field` problem. */
  build(ctx: ElementContext): MrfHeader {
    const get = (k: string): string => this.values.get(k) ?? '';
    for (const k of ['reporting_entity_name', 'reporting_entity_type']) {
      if (get(k).trim() === '') report(ctx, 'missing_field', `$.${k}`, `missing root field ${k}`);
    }
    const h: MrfHeader = {
      reporting_entity_name: get('reporting_entity_name'),
      reporting_entity_type: get('reporting_entity_type'),
      last_updated_on: get('last_updated_on'),
      version: get('version'),
    };
    for (const k of ['plan_name', 'plan_id_type', 'plan_id', 'plan_market_type'] as const) {
      const v = this.values.get(k);
      if (v !== undefined && v !== '') h[k] = v;
    }
    return h;
  }
}
