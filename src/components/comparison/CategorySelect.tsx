/** The category dropdown: 'All Categories' + contract/metrics.ts CATEGORIES (product-spec §2). */
import { useId, type ReactElement } from 'react';
import { CATEGORIES, type Category } from '../../../contract/metrics';

export function CategorySelect({ value, onChange }: { value: Category | null; onChange(category: Category | null): void }): ReactElement {
  const id = useId();
  return (
    <div className="filter-field">
      <label htmlFor={id}>Category</label>
      <select id={id} className="select" value={value ?? ''}
        onChange={(event) => onChange((event.target.value || null) as Category | null)}>
        <option value="">All Categories</option>
        {CATEGORIES.map((c) => (
          <option key={c} value={c}>{c}</option>
        ))}
      </select>
    </div>
  );
}
