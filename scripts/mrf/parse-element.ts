/**
 * `JSON.parse` of one element slice cut by the root scanner, with the provider-group id tokens kept
 * as text (quote-id-tokens.ts). Bare `NaN`, `Infinity` and `-Infinity` tokens (not JSON, but written
 * by some JSON encoders) are turned into strings on a second attempt, so the normaliser drops only
 * the price that carries them (`invalid_rate`) rather than the whole element.
 */
import { quoteIdTokens } from './quote-id-tokens.js';
import type { RootArray } from './root-scanner.js';

/** Rewrites bare NaN / Infinity / -Infinity tokens (outside strings) as JSON strings. */
export function quoteNonFiniteTokens(text: string): string {
  let out = '';
  let copied = 0;
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (c === 92) i++;
      else if (c === 34) inStr = false;
      continue;
    }
    if (c === 34) {
      inStr = true;
      continue;
    }
    for (const token of ['NaN', 'Infinity', '-Infinity']) {
      if (c === token.charCodeAt(0) && text.startsWith(token, i)) {
        out += `${text.slice(copied, i)}"${token}"`;
        copied = i + token.length;
        i = copied - 1;
        break;
      }
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Parsed element, or the reason it is not JSON (the caller reports it and drops the element). */
export type ParsedElement = { ok: true; value: unknown } | { ok: false; reason: string };

/** Decodes (UTF-8) and parses one element of `array`. Never throws. */
export function parseElement(bytes: Buffer, array: RootArray): ParsedElement {
  let text: string;
  try {
    text = quoteIdTokens(bytes.toString('utf8'), array);
  } catch (e) {
    // V8 strings stop at ~512 MiB (docs/architecture.md): such an element needs negotiated_rates splitting
    return { ok: false, reason: `element of ${bytes.length} bytes cannot be decoded: ${(e as Error).message}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const lenient = quoteNonFiniteTokens(text);
    if (lenient !== text) {
      try {
        return { ok: true, value: JSON.parse(lenient) as unknown };
      } catch {
        // fall through: report the first error
      }
    }
    return { ok: false, reason: (e as Error).message };
  }
}
