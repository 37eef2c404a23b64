/**
 * The autocomplete box, docs/screens.md (Shared components): at most 10 options, the note
 * 'Showing 10 of n results' when more match, keyboard ArrowUp/ArrowDown/Enter/Escape, a clear
 * button, a loading spinner while the search runs, and 'No results found for "..."' with the
 * hint when nothing matches. ARIA 1.2 combobox with a listbox popup. With `listWhenEmpty` an empty
 * box searches too (`search('')`), so focusing it shows the first options before any typing.
 */
import { useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { CloseIcon } from '../Icons';
import './Autocomplete.css';

/** A search's answer: the options to show (already limited) and how many matched in all. */
export interface SearchResult<T> {
  options: T[];
  total: number;
}

export interface AutocompleteProps<T> {
  label: string;
  placeholder?: string;
  /** Runs the search; may be async. */
  search: (query: string) => SearchResult<T> | Promise<SearchResult<T>>;
  optionKey: (option: T) => string;
  renderOption: (option: T) => ReactNode;
  onSelect: (option: T) => void;
  /** Delay before searching after a keystroke, ms. */
  debounceMs?: number;
  /** Search with the empty query too (the list's first options on focus); default false: nothing until typed. */
  listWhenEmpty?: boolean;
  /** The box takes no input (a field that waits for another choice); default false. */
  disabled?: boolean;
}

/** The hint under 'No results found'. */
export const NO_RESULTS_HINT = 'Try searching for service names, CPT codes, provider names, or categories';

type State<T> = { status: 'idle' } | { status: 'loading' } | { status: 'done'; query: string; result: SearchResult<T> };

export function Autocomplete<T>(props: AutocompleteProps<T>): ReactElement {
  const { label, placeholder, search, optionKey, renderOption, onSelect, debounceMs = 150, listWhenEmpty = false, disabled = false } = props;
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [state, setState] = useState<State<T>>({ status: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-list`;

  useEffect(() => {
    const q = query.trim();
    if (!q && !listWhenEmpty) {
      setState({ status: 'idle' });
      return;
    }
    let cancelled = false;
    setState({ status: 'loading' });
    const timer = setTimeout(() => {
      void Promise.resolve(search(q)).then((result) => {
        if (cancelled) return;
        setState({ status: 'done', query: q, result });
        setActive(-1);
      });
    }, debounceMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query, search, debounceMs, listWhenEmpty]);

  const options = state.status === 'done' ? state.result.options : [];
  // An empty box with an empty list (listWhenEmpty, nothing to list yet) has no popup to show.
  const nothing = state.status === 'done' && state.query === '' && state.result.total === 0;
  const expanded = open && state.status !== 'idle' && !nothing;
  const choose = (option: T) => {
    onSelect(option);
    setQuery('');
    setOpen(false);
    input.current?.focus();
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      const option = options[active];
      if (expanded && option) {
        event.preventDefault();
        choose(option);
      }
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        setActive(-1);
      }
    }
  };

  return (
    <div className="autocomplete" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}>
      <label htmlFor={`${id}-input`} className="autocomplete__label">{label}</label>
      <div className="autocomplete__field">
        <input ref={input} id={`${id}-input`} type="text" className="autocomplete__input" value={query}
          placeholder={placeholder} autoComplete="off" spellCheck={false} disabled={disabled}
          role="combobox" aria-expanded={expanded} aria-controls={listId} aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)} onKeyDown={onKeyDown} />
        {state.status === 'loading' && <span className="spinner autocomplete__spinner" role="status" aria-label="Searching" />}
        {query && (
          <button type="button" className="icon-button autocomplete__clear" aria-label={`Clear ${label}`}
            onClick={() => {
              setQuery('');
              input.current?.focus();
            }}>
            <CloseIcon />
          </button>
        )}
      </div>
      <div className="autocomplete__popup" hidden={!expanded}>
        <ul id={listId} role="listbox" aria-label={`${label} suggestions`} className="autocomplete__list">
          {options.map((option, i) => (
            <li key={optionKey(option)} id={`${id}-opt-${i}`} role="option" aria-selected={i === active}
              className={`autocomplete__option${i === active ? ' is-active' : ''}`}
              onPointerDown={(e) => e.preventDefault()} onClick={() => choose(option)} onPointerMove={() => setActive(i)}>
              {renderOption(option)}
            </li>
          ))}
        </ul>
        {state.status === 'loading' && <p className="autocomplete__note">Searching...</p>}
        {state.status === 'done' && state.result.total > options.length && (
          <p className="autocomplete__note">{`Showing ${options.length} of ${state.result.total.toLocaleString('en-US')} results`}</p>
        )}
        {state.status === 'done' && state.result.total === 0 && state.query !== '' && (
          <div className="autocomplete__empty">
            <p>{`No results found for "${state.query}"`}</p>
            <p className="muted">{NO_RESULTS_HINT}</p>
          </div>
        )}
      </div>
    </div>
  );
}
