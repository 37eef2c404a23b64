/**
 * The protected layout, docs/screens.md (Shell and sign-in): without a stored access token
 * the user goes to /login; otherwise the navigation, the header and the screen (`<Outlet />`).
 */
import { useEffect, type ReactElement } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useAppStore } from '../store';
import { Header } from './Header';
import { SideNav } from './SideNav';
import './Shell.css';

/** Wide-screen breakpoint; keep in step with the `min-width: 900px` media queries of the CSS. */
const WIDE = '(min-width: 900px)';

export function Shell(): ReactElement {
  const token = useAppStore((s) => s.token);
  const menuOpen = useAppStore((s) => s.mobileMenuOpen);
  const setMenuOpen = useAppStore((s) => s.setMobileMenuOpen);

  // The slide-in menu only exists on small screens: growing the window closes it.
  useEffect(() => {
    const media = window.matchMedia(WIDE);
    const onChange = () => {
      if (media.matches) setMenuOpen(false);
    };
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [setMenuOpen]);

  if (!token) return <Navigate to="/login" replace />;

  return (
    <div className="shell">
      <SideNav />
      <div className="shell__body" inert={menuOpen}>
        <Header />
        <main id="main" className="shell__main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
