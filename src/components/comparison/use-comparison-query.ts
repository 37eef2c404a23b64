/** Hook binding ComparisonQuery to the URL search params (react-router). */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parseComparisonQuery, writeComparisonQuery, type ComparisonQuery } from './comparison-query';

/** Returns the current query and a setter that writes it to the URL (a new history entry). */
export function useComparisonQuery(): [ComparisonQuery, (next: ComparisonQuery) => void] {
  const [search, setSearch] = useSearchParams();
  const query = useMemo(() => parseComparisonQuery(search), [search]);
  const setQuery = useCallback(
    (next: ComparisonQuery) => setSearch((current) => writeComparisonQuery(current, next)),
    [setSearch],
  );
  return [query, setQuery];
}
