/**
 * Live paging, docs/screens.md (Live comparison): rows per page (25, 50, 100, 200), Previous / Next and
 * 'Page n' (1-based). Previous is disabled on the first page; Next only when `hasNext`.
 */
import { useId, type ReactElement } from 'react';
import { PAGE_SIZES, type PageSize } from '../url-state/comparison-query';
import '../../components/table/table.css';

export interface PagingControlsProps {
  /** 0-based page index. */
  page: number;
  limit: PageSize;
  hasNext: boolean;
  onPage(page: number): void;
  onPageSize(limit: PageSize): void;
}

export function PagingControls({ page, limit, hasNext, onPage, onPageSize }: PagingControlsProps): ReactElement {
  const sizeId = useId();
  return (
    <div className="paging">
      <div className="paging__size">
        <label htmlFor={sizeId}>Rows per page</label>
        <select id={sizeId} className="select" value={limit}
          onChange={(event) => onPageSize(Number(event.target.value) as PageSize)}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>{size}</option>
          ))}
        </select>
      </div>
      <nav className="paging__nav" aria-label="Pagination">
        <button type="button" className="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <span className="paging__page" aria-live="polite">Page {page + 1}</span>
        <button type="button" className="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </nav>
    </div>
  );
}
