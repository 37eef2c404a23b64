/**
 * CSV of a table on screen (RFC 4180): fields separated by commas, records by CRLF; a field with
 * a comma, a double quote, CR or LF is enclosed in double quotes and its quotes doubled. A field
 * starting with `=`, `+`, `-` or `@` that is not a number gets a leading apostrophe, so a
 * spreadsheet never runs it as a formula (OWASP CSV injection). Pure; `downloadCsv` saves it.
 */

/** A cell value: numbers as written by JavaScript, null/undefined as empty. */
export type CsvValue = string | number | boolean | null | undefined;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** One field, quoted when RFC 4180 requires it. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let s = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The header line and one line per row, CRLF-terminated. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Saves `csv` as `fileName` through a Blob and a temporary download link. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
