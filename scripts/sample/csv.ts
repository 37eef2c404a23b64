/** Minimal RFC 4180 CSV writing for the sample's CSV files. */

/** One field: quoted when it holds a comma, quote or line break (or always, with `always`). */
export function csvField(value: string | number, always = false): string {
  const text = String(value);
  if (always || /[",\r\n]/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** A whole CSV text: header plus rows, `\n` line ends, a final newline. */
export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>, always = false): string {
  const lines = [header, ...rows].map((r) => r.map((v) => csvField(v, always)).join(','));
  return lines.join('\n') + '\n';
}
