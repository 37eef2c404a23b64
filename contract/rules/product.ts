/**
 * How a product is named on screen and in the converter's plan (docs/converter.md, Products): an
 * insurer entry of the catalog is one product of a company, shown under its group as
 * `UnitedHealthcare · Choice Plus PPO`. A product whose group is its own name (no `group` in the
 * catalog, or a dataset before 0.18 that has none) is shown by its name alone.
 */

/** The label of product `name` of company `group` (`group · name`; `name` when they are equal or `group` is empty). */
export function productLabel(group: string | undefined, name: string): string {
  return group && group !== name ? `${group} · ${name}` : name;
}
