/**
 * The text of a catalog file (docs/converter.md, The catalog): UTF-8 (RFC 8259, section 8.1:
 * JSON exchanged between systems is UTF-8), a UTF-8 byte-order mark dropped.
 *
 * Editors on Windows save "Unicode" as UTF-16, and PowerShell 5 redirects write it: such a file
 * read as UTF-8 is a stream of NUL bytes that a JSON error message would quote to the terminal.
 * It is refused with the encoding it has, rather than decoded, so that one catalog has one text
 * (and one SHA-256 in the manifest) whatever wrote it.
 */
import { isUtf8 } from 'node:buffer';

/** Byte-order marks of the encodings a catalog is not in; UTF-32 LE before UTF-16 LE, whose mark it starts with. */
const FOREIGN_BOMS: Array<[string, number[]]> = [
  ['UTF-32 (little-endian, byte-order mark FF FE 00 00)', [0xff, 0xfe, 0x00, 0x00]],
  ['UTF-32 (big-endian, byte-order mark 00 00 FE FF)', [0x00, 0x00, 0xfe, 0xff]],
  ['UTF-16 (little-endian, byte-order mark FF FE)', [0xff, 0xfe]],
  ['UTF-16 (big-endian, byte-order mark FE FF)', [0xfe, 0xff]],
];

const UTF8_BOM = [0xef, 0xbb, 0xbf];

const startsWith = (bytes: Uint8Array, prefix: number[]): boolean => prefix.every((b, i) => bytes[i] === b);

/** Byte offset of the first sequence that is not UTF-8 in `bytes` (which isUtf8 refused). */
function firstInvalidUtf8(bytes: Buffer): number {
  const text = bytes.toString('utf8');
  for (let k = text.indexOf('\uFFFD'); k >= 0; k = text.indexOf('\uFFFD', k + 1)) {
    // Before the first replacement that stands for invalid bytes, the text re-encodes to the file's bytes.
    const at = Buffer.byteLength(text.slice(0, k), 'utf8');
    if (!startsWith(bytes.subarray(at), [0xef, 0xbf, 0xbd])) return at;
  }
  return bytes.length;
}

/**
 * Decodes a catalog file's bytes.
 * @returns the text, without a leading UTF-8 byte-order mark.
 * @throws Error whose message completes `<catalog> ` and ends `save it as UTF-8`: `is UTF-16
 *   (little-endian, byte-order mark FF FE); save it as UTF-8`, `has a NUL byte at offset 1 ...`,
 *   `is not UTF-8: invalid byte 0xE9 at offset 40 ...`.
 */
export function catalogText(bytes: Buffer): string {
  for (const [encoding, bom] of FOREIGN_BOMS) {
    if (startsWith(bytes, bom)) throw new Error(`is ${encoding}; save it as UTF-8`);
  }
  const body = startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes;
  const nul = body.indexOf(0);
  if (nul >= 0) {
    const at = nul + bytes.length - body.length;
    throw new Error(`has a NUL byte at offset ${at} (UTF-16 or UTF-32 without a byte-order mark, or not text); save it as UTF-8`);
  }
  if (!isUtf8(body)) {
    const at = firstInvalidUtf8(body);
    const what = at < body.length ? `invalid byte 0x${body[at]!.toString(16).toUpperCase().padStart(2, '0')}` : 'a truncated sequence';
    throw new Error(`is not UTF-8: ${what} at offset ${at + bytes.length - body.length}; save it as UTF-8`);
  }
  return body.toString('utf8');
}
