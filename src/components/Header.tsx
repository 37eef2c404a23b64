/**
 * The shell's header, docs/screens.md (Shell and sign-in): the small-screen menu button, a notification bell
 * (no behaviour yet) and the user menu.
 */
import { useEffect, useRef, type ReactElement } from 'react';
import { useAppStore } from '../store';
import { BellIcon, MenuIcon } from './Icons';
import { NAV_ID } from './SideNav';
import { UserMenu } from './UserMenu';
import './Header.css';

export function Header(): ReactElement {
  const open = useAppStore((s) => s.mobileMenuOpen);
  const setOpen = useAppStore((s) => s.setMobileMenuOpen);
  const menuButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);

  // Focus returns to the menu button when the slide-in menu closes.
  useEffect(() => {
    if (wasOpen.current && !open && menuButton.current?.offsetParent) menuButton.current.focus();
    wasOpen.current = open;
  }, [open]);

  return (
    <header className="app-header">
      <button ref={menuButton} type="button" className="icon-button app-header__menu" aria-label="Open menu"
        aria-expanded={open} aria-controls={NAV_ID} onClick={() => setOpen(true)}>
        <MenuIcon />
      </button>
      <span className="app-header__brand">Compete</span>
      <div className="app-header__actions">
        <button type="button" className="icon-button" aria-label="Notifications">
          <BellIcon />
        </button>
        <UserMenu />
      </div>
    </header>
  );
}
