/**
 * The header's user menu, docs/screens.md (Shell and sign-in): the user label (the access token's `name`
 * claim, else the placeholder) and a menu with
 * 'Sign out' (-> /logout). Keyboard: Enter/Space/ArrowDown opens and focuses the first item,
 * Escape closes and returns focus to the button; a click outside or leaving it by Tab closes it.
 */
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useAppStore } from '../store';
import { tokenUserName } from '../store/token-claims';
import { ChevronDownIcon, SignOutIcon, UserIcon } from './Icons';
import './UserMenu.css';

/** The placeholder user label when the token carries no name. */
export const USER_LABEL = 'Analyst';

export function UserMenu(): ReactElement {
  const [open, setOpen] = useState(false);
  const label = useAppStore((s) => tokenUserName(s.token)) ?? USER_LABEL;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const firstItem = useRef<HTMLAnchorElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    firstItem.current?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  return (
    <div
      ref={root}
      className="user-menu"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close(true);
        }
      }}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="user-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span className="user-menu__avatar"><UserIcon /></span>
        <span className="user-menu__label">{label}</span>
        <ChevronDownIcon />
      </button>
      <ul id={menuId} role="menu" aria-label="User menu" className="user-menu__list" hidden={!open}>
        <li role="none">
          <Link ref={firstItem} role="menuitem" to="/logout" className="user-menu__item" onClick={() => setOpen(false)}>
            <SignOutIcon />
            Sign out
          </Link>
        </li>
      </ul>
    </div>
  );
}
