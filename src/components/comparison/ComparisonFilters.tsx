/**
 * The filters of both comparison screens (docs/screens.md: Sample comparison, Live comparison), on plain props so
 * the live comparison (src/live/components/LiveFilters.tsx, URL state) and the sample one
 * (src/sample/comparison/ComparisonFilters.tsx, React state) share one control set:
 * insurer checkboxes with market share (products under their company: product-groups.ts), the category ('All Categories'), the sort, the
 * Professional and Institutional toggle chips, 'Show only overpaying services', and any further
 * controls a screen adds at the end of the row (`extra`: the live screen's 'At shared providers').
 */
import { useId, type ReactElement, type ReactNode } from 'react';
import { formatPercent } from '../../../contract/rules/format';
import { productLabel } from '../../../contract/rules/product';
import { CategorySelect } from './CategorySelect';
import { productGroups } from './product-groups';

/**
 * One insurer checkbox: short name, market share in percent (0..100), full name as tooltip when
 * given; `group`, the company of a product (product-groups.ts), lists it under that company.
 */
export interface FilterInsurer {
  id: string;
  shortName: string;
  marketShare: number;
  name?: string;
  group?: string;
}

export interface ComparisonFiltersProps<S extends string, C extends string> {
  /** The insurers to compare against, in display order. */
  insurers: readonly FilterInsurer[];
  /** The checked insurer ids. */
  selected: readonly string[];
  onToggleInsurer(id: string, on: boolean): void;
  /** The categories offered after 'All Categories'. */
  categories: readonly C[];
  /** The chosen category; null = 'All Categories'. */
  category: C | null;
  onCategory(category: C | null): void;
  /** The sort orders and their labels, in display order. */
  sortLabels: Readonly<Record<S, string>>;
  sort: S;
  onSort(sort: S): void;
  professional: boolean;
  institutional: boolean;
  onServiceType(change: { professional: boolean } | { institutional: boolean }): void;
  overpayingOnly: boolean;
  onOverpayingOnly(on: boolean): void;
  /** Controls after the others in the row. */
  extra?: ReactNode;
}

export function ComparisonFilters<S extends string, C extends string>(props: ComparisonFiltersProps<S, C>): ReactElement {
  const { insurers, selected, onToggleInsurer, sortLabels, sort, professional, institutional, onServiceType } = props;
  const sortId = useId();
  const typeId = useId();
  return (
    <div className="cmp-filters">
      <fieldset className="cmp-insurers">
        <legend>Compare against</legend>
        <div className="cmp-insurers__list">
          {productGroups(insurers).map(({ group, insurers: products }) => {
            const boxes = products.map((c) => (
              <label key={c.id} className="check">
                <input type="checkbox" checked={selected.includes(c.id)} onChange={(e) => onToggleInsurer(c.id, e.target.checked)} />
                <span title={c.name === undefined ? undefined : productLabel(c.group, c.name)}>{c.shortName}</span>
                <span className="check__meta">{`${formatPercent(c.marketShare)} share`}</span>
              </label>
            ));
            return group === null ? boxes : (
              <div key={`group:${group}`} className="cmp-insurers__group" role="group" aria-label={group}>
                <span className="cmp-insurers__group-name" aria-hidden="true">{group}</span>
                {boxes}
              </div>
            );
          })}
        </div>
      </fieldset>
      <div className="cmp-filters__row">
        <CategorySelect value={props.category} options={props.categories} onChange={props.onCategory} />
        <div className="filter-field">
          <label htmlFor={sortId}>Sort by</label>
          <select id={sortId} className="select" value={sort} onChange={(e) => props.onSort(e.target.value as S)}>
            {(Object.keys(sortLabels) as S[]).map((s) => <option key={s} value={s}>{sortLabels[s]}</option>)}
          </select>
        </div>
        <div className="filter-field">
          <span id={typeId}>Service type</span>
          <div className="toggle-chips" role="group" aria-labelledby={typeId}>
            <button type="button" className="toggle-chip" aria-pressed={professional}
              onClick={() => onServiceType({ professional: !professional })}>Professional</button>
            <button type="button" className="toggle-chip" aria-pressed={institutional}
              onClick={() => onServiceType({ institutional: !institutional })}>Institutional</button>
          </div>
        </div>
        <label className="check cmp-filters__overpaying">
          <input type="checkbox" checked={props.overpayingOnly} onChange={(e) => props.onOverpayingOnly(e.target.checked)} />
          <span>Show only overpaying services</span>
        </label>
        {props.extra}
      </div>
    </div>
  );
}
