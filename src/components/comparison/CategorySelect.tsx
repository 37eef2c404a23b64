/**
 * The category dropdown of the comparison screens: 'All Categories', then the
 * categories given (the live screen: those of the dataset's services, src/live/url-state/categories.ts;
 * the sample: its catalogue's). A chosen value the list lacks (a URL naming a category the dataset
 * has not, or the list still loading) stays shown and chosen, so the control says what filters.
 */
import { useId, type ReactElement } from 'react';

export interface CategorySelectProps<C extends string> {
  value: C | null;
  options: readonly C[];
  onChange(category: C | null): void;
}

export function CategorySelect<C extends string>({ value, options, onChange }: CategorySelectProps<C>): ReactElement {
  const id = useId();
  const shown = value === null || options.includes(value) ? options : [...options, value];
  return (
    <div className="filter-field">
      <label htmlFor={id}>Category</label>
      <select id={id} className="select" value={value ?? ''}
        onChange={(event) => onChange((event.target.value || null) as C | null)}>
        <option value="">All Categories</option>
        {shown.map((c) => (
          <option key={c} value={c}>{c}</option>
        ))}
      </select>
    </div>
  );
}
