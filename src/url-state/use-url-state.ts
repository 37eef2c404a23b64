/**
 * Binds a parse/write pair to the URL search params (react-router): the screen's state lives in
 * the URL, so a view can be bookmarked and shared, and Back/Forward move through it.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/** Returns the parsed state and a setter writing it to the URL (a new history entry). */
export function useUrlState<T>(
  parse: (search: URLSearchParams) => T,
  write: (current: URLSearchParams, next: T) => URLSearchParams,
): [T, (next: T | ((previous: T) => T)) => void] {
  const [search, setSearch] = useSearchParams();
  const state = useMemo(() => parse(search), [search, parse]);
  // An updater reads the URL of the moment, so two quick changes do not undo each other.
  const set = useCallback(
    (next: T | ((previous: T) => T)) =>
      setSearch((current) => write(current, typeof next === 'function' ? (next as (p: T) => T)(parse(current)) : next)),
    [setSearch, parse, write],
  );
  return [state, set];
}
