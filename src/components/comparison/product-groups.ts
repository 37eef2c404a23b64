/**
 * Insurer checkboxes listed under their company (docs/converter.md, Products): a catalog entry is
 * one product of a `group`, and the screens list products under their group
 * ('UnitedHealthcare · Choice Plus PPO'). Insurers that are their own group (no `group` in the
 * catalog, or a dataset before converter 0.18) stay a flat list.
 */

/** One insurer of a list, with its group (empty or absent: its own). */
export interface GroupedInsurer {
  id: string;
  group?: string;
}

/** A heading and its insurers, in the list's order; `group` null for insurers listed alone. */
export interface ProductGroup<T extends GroupedInsurer> {
  group: string | null;
  insurers: T[];
}

/**
 * `insurers` in their order, those of a group of two or more products gathered under it at the
 * place of its first product; every other insurer stands alone (`group` null).
 */
export function productGroups<T extends GroupedInsurer>(insurers: readonly T[]): Array<ProductGroup<T>> {
  const size = new Map<string, number>();
  for (const i of insurers) if (i.group) size.set(i.group, (size.get(i.group) ?? 0) + 1);
  const out: Array<ProductGroup<T>> = [];
  const at = new Map<string, ProductGroup<T>>();
  for (const i of insurers) {
    const g = i.group && (size.get(i.group) ?? 0) > 1 ? i.group : null;
    if (g === null) {
      out.push({ group: null, insurers: [i] });
      continue;
    }
    let entry = at.get(g);
    if (!entry) {
      entry = { group: g, insurers: [] };
      at.set(g, entry);
      out.push(entry);
    }
    entry.insurers.push(i);
  }
  return out;
}
