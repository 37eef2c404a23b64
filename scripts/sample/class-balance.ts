/**
 * The row structure every insurer's prices share, per service. docs/methodology.md puts the professional and
 * institutional rows of a service into ONE median when both classes are selected (the default), so
 * an insurer whose network held more facility rows than physician rows for a code would show a
 * facility price ($24,000 for an ICD insertion) beside competitors showing the physician's fee
 * ($2,200). Real networks price a facility service at many physicians per hospital; the sample keeps
 * that shape, for every insurer and service:
 * - global professional rows (no modifier) are at least twice the split ones (modifier 26 reading
 *   or TC technical part, priced at a third or two thirds of the global fee);
 * - professional rows are at least twice the institutional ones (`both` counted as institutional).
 * So the all-classes and the Professional medians are a global professional fee for every insurer,
 * while the Institutional filter still finds facility prices wherever an insurer has two or more
 * professional rows; the same holds in every state. Counts follow docs/methodology.md "Rows that count": one
 * row per provider (NPI, or the TIN of an `npi: [0]` group) and distinct price, dollar types only.
 */
import { groupProviderCount, type NetworkGroup } from './networks';
import type { PriceTemplate, ServiceTemplates } from './price-templates';
import { rngFor } from './rng';

/** Rows of the majority kind per row of the minority kind, at least (both rules above). */
export const MAJORITY_RATIO = 2;

/** Dollar types of docs/methodology.md "Rows that count"; `percentage` and `per diem` enter no median. */
const DOLLAR_TYPES: ReadonlySet<string> = new Set(['negotiated', 'derived', 'fee schedule']);

type Groups = ServiceTemplates['groups'];

const isDollar = (p: PriceTemplate): boolean => DOLLAR_TYPES.has(p.negotiatedType);
/** An institutional-side dollar price (`both` passes the Institutional filter). */
const isInstitutional = (p: PriceTemplate): boolean => isDollar(p) && p.billingClass !== 'professional';
/** A professional dollar price for part of the service (modifier 26 or TC). */
const isSplit = (p: PriceTemplate): boolean => isDollar(p) && p.billingClass === 'professional' && p.modifiers.length > 0;
const isGlobal = (p: PriceTemplate): boolean => isDollar(p) && p.billingClass === 'professional' && p.modifiers.length === 0;

/** Dollar rate rows of the prices `which` selects, one per provider of each group. */
export function countRows(groups: Groups, network: readonly NetworkGroup[], which: (p: PriceTemplate) => boolean): number {
  let rows = 0;
  for (const { group, prices } of groups) rows += prices.filter(which).length * groupProviderCount(network[group] as NetworkGroup);
  return rows;
}

/**
 * Keeps the `minority` prices of at most `budget` rows: whole groups keep theirs in a seeded order
 * (`key`, the same in every snapshot), the others lose them together with `companions` (a facility's
 * `per diem` row goes with its dollar price). Groups left without a price are dropped.
 */
function trim(groups: Groups, network: readonly NetworkGroup[], budget: number, minority: (p: PriceTemplate) => boolean, companions: (p: PriceTemplate) => boolean, key: string[]): Groups {
  const holders = groups.filter((g) => g.prices.some(minority));
  const dropped = new Set<number>();
  for (const g of rngFor(...key).shuffle(holders)) {
    const rows = countRows([g], network, minority);
    if (rows <= budget) budget -= rows;
    else dropped.add(g.group);
  }
  return groups
    .map(({ group, prices }) => ({ group, prices: dropped.has(group) ? prices.filter((p) => !minority(p) && !companions(p)) : prices }))
    .filter((g) => g.prices.length > 0);
}

/**
 * One insurer's service with the structure above, in each state of its network separately (so a
 * state filter, docs/methodology.md "Rows that count", compares like with like too) and hence nationally. A
 * facility-only service (`service.prof` null) keeps every row. Split rows are trimmed first, then
 * facility rows; where an insurer has fewer than two professional rows in a state it keeps no
 * institutional dollar row there (a `percentage`-only facility keeps its row, which enters no
 * median). Returns the groups that still hold a price, in their original order.
 */
export function balanceClasses(insurerId: string, st: ServiceTemplates, network: readonly NetworkGroup[]): Groups {
  if (st.service.prof === null) return st.groups;
  const code = st.service.code;
  const stateOf = (group: number): string => (network[group] as NetworkGroup).practice.state;
  const kept = new Set<ServiceTemplates['groups'][number]>();
  for (const state of new Set(st.groups.map((g) => stateOf(g.group)))) {
    let groups = st.groups.filter((g) => stateOf(g.group) === state);
    // The majority side counts NPI rows only: a TIN-only group has no registry state, so a state
    // filter never sees it (while its minority rows still count against the budget).
    const withNpi = (gs: Groups): Groups => gs.filter((g) => !(network[g.group] as NetworkGroup).practice.tinOnly);
    const globalRows = countRows(withNpi(groups), network, isGlobal);
    groups = trim(groups, network, Math.floor(globalRows / MAJORITY_RATIO), isSplit, () => false, ['split-keep', insurerId, code, state]);
    const professional = countRows(withNpi(groups), network, (p) => isGlobal(p) || isSplit(p));
    const perDiem = (p: PriceTemplate): boolean => p.negotiatedType === 'per diem';
    groups = trim(groups, network, Math.floor(professional / MAJORITY_RATIO), isInstitutional, perDiem, ['facility-keep', insurerId, code, state]);
    for (const g of groups) kept.add(g);
  }
  return [...kept].sort((a, b) => a.group - b.group);
}
