/**
 * Snapshot months (docs/methodology.md, Rows that count): `YYYY-MM`, from the catalog, else from the file's
 * `last_updated_on`, parsed leniently (docs/converter.md, Quirks of real files: `2025-01-01`, `2/4/2026`).
 */

/** The `YYYY-MM` month of a `last_updated_on` value, or null when it is not a recognisable date. */
export function monthOf(lastUpdatedOn: string): string | null {
  const t = lastUpdatedOn.trim();
  let m = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T ].*)?$/.exec(t);
  if (m) return valid(Number(m[1]), Number(m[2]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return valid(Number(m[3]), Number(m[1]));
  return null;
}

function valid(year: number, month: number): string | null {
  if (year < 1900 || year > 9999 || month < 1 || month > 12) return null;
  return `${year}-${String(month).padStart(2, '0')}`;
}
