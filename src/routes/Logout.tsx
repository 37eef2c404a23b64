/**
 * /logout, docs/screens.md (Shell and sign-in): shows 'Logging out...', clears the stored token, then sends the
 * browser to /api/auth/logout with `redirect_uri` = this origin's /login.
 */
import { useEffect, type ReactElement } from 'react';
import { logoutUrl } from '../api/auth-config';
import { AuthCard } from '../components/AuthCard';
import { useAppStore } from '../store';

export function Logout(): ReactElement {
  const signOut = useAppStore((s) => s.signOut);

  useEffect(() => {
    signOut();
    window.location.replace(logoutUrl(window.location.origin));
  }, [signOut]);

  return (
    <AuthCard>
      <title>Logging out · Compete</title>
      <p role="status">Logging out...</p>
    </AuthCard>
  );
}
