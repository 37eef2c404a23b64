/**
 * The navigation, docs/screens.md (Shell and sign-in): persistent on wide screens, a slide-in menu on small
 * screens, closed by its close button, a backdrop click, Escape or choosing an entry. The active
 * entry is highlighted by exact path match (`end` NavLinks).
 */
import { Fragment, useEffect, useRef, type ReactElement } from 'react';
import { NavLink } from 'react-router-dom';
import { useAppStore } from '../store';
import { ActivityIcon, AlertIcon, CloseIcon, CompareIcon, FileIcon, HomeIcon, MapIcon, SearchIcon, SettingsIcon } from './Icons';
import { NAV_GROUPS, type NavEntry, type NavIcon } from './nav-entries';
import './SideNav.css';

/** id of the nav element, referenced by the header's menu button (`aria-controls`). */
export const NAV_ID = 'main-navigation';

/** Every icon a navigation entry may name. */
const ICONS: Record<NavIcon, () => ReactElement> = {
  home: HomeIcon,
  compare: CompareIcon,
  alert: AlertIcon,
  map: MapIcon,
  settings: SettingsIcon,
  search: SearchIcon,
  file: FileIcon,
  activity: ActivityIcon,
};

/** One list of entries; choosing one closes the small-screen menu. */
function NavList({ entries, onChoose, className, labelledBy }: {
  entries: readonly NavEntry[];
  onChoose: () => void;
  className: string;
  labelledBy?: string;
}): ReactElement {
  return (
    <ul className={className} aria-labelledby={labelledBy}>
      {entries.map((entry) => {
        const Icon = ICONS[entry.icon];
        return (
          <li key={entry.to}>
            <NavLink to={entry.to} end className="sidenav__link" onClick={onChoose}>
              <Icon />
              <span>{entry.label}</span>
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}

export function SideNav(): ReactElement {
  const open = useAppStore((s) => s.mobileMenuOpen);
  const setOpen = useAppStore((s) => s.setMobileMenuOpen);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, setOpen]);

  return (
    <>
      <div className={`sidenav-backdrop${open ? ' is-open' : ''}`} aria-hidden="true" onClick={() => setOpen(false)} />
      <nav id={NAV_ID} className={`sidenav${open ? ' is-open' : ''}`} aria-label="Main navigation">
        <div className="sidenav__top">
          <div className="sidenav__brand">
            <span className="sidenav__logo" aria-hidden="true">C</span>
            <span>
              <span className="sidenav__name">Compete</span>
              <span className="sidenav__tagline">Price transparency</span>
            </span>
          </div>
          <button ref={closeButton} type="button" className="icon-button sidenav__close" aria-label="Close menu"
            onClick={() => setOpen(false)}>
            <CloseIcon />
          </button>
        </div>
        {NAV_GROUPS.map((group, i) => group.title === null ? (
          <NavList key={i} entries={group.entries} onChoose={() => setOpen(false)} className="sidenav__list" />
        ) : (
          <Fragment key={i}>
            <h2 className="sidenav__group" id={`sidenav-group-${i}`}>{group.title}</h2>
            <NavList entries={group.entries} onChoose={() => setOpen(false)} className="sidenav__list sidenav__list--group"
              labelledBy={`sidenav-group-${i}`} />
          </Fragment>
        ))}
        <p className="sidenav__footer">
          Negotiated rates published under the Transparency in Coverage rules.
        </p>
      </nav>
    </>
  );
}
