/**
 * Binds a parse/write pair to the URL search params (react-router): the screen's state lives in
 * the URL, so a view can be bookmarked and shared, and Back/Forward move through it.
 */
import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * Returns the parsed state and a setter writing it to the URL (a new history entry). An updater
 * gets the state of the last URL written or navigated to, not the one of the last render:
 * react-router hands a function given to `setSearchParams` the params of its own last render, so
 * a second click before the re-render would undo the first.
 */
export function useUrlState<T>(
  parse: (search: URLSearchParams) => T,
  write: (current: URLSearchParams, next: T) => URLSearchParams,
): [T, (next: T | ((previous: T) => T)) => void] {
  const [search, setSearch] = useSearchParams();
  const state = useMemo(() => parse(search), [search, parse]);
  // the URL's params as last written here, or as rendered after a navigation (Back, Forward, a link)
  const latest = useRef(search);
  const rendered = useRef(search);
  if (rendered.current !== search) {
    rendered.current = search;
    latest.current = search;
  }
  const set = useCallback(
    (next: T | ((previous: T) => T)) => {
      const current = new URLSearchParams(latest.current);
      const written = write(current, typeof next === 'function' ? (next as (p: T) => T)(parse(current)) : next);
      latest.current = written;
      setSearch(written);
    },
    [setSearch, parse, write],
  );
  return [state, set];
}
