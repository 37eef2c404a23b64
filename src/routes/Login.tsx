/**
 * /login, docs/screens.md (Shell and sign-in): one 'Sign in' button sending the browser to /api/auth/login.
 * Says 'Development sign-in: no account needed' when the server runs its development sign-in,
 * shows a notice left by the session (e.g. 'Your session has expired'), and accepts a `token`
 * query parameter like /auth/callback.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { fetchAuthMode, type AuthMode } from '../api/auth-config';
import { AuthCard } from '../components/AuthCard';
import { useAppStore } from '../store';
import { AuthCallback } from './AuthCallback';

export function Login(): ReactElement {
  const [search] = useSearchParams();
  const clearNotice = useAppStore((s) => s.clearNotice);
  const [notice] = useState(() => useAppStore.getState().notice);
  const [mode, setMode] = useState<AuthMode | null>(null);

  useEffect(() => {
    clearNotice();
  }, [clearNotice]);

  useEffect(() => {
    const controller = new AbortController();
    void fetchAuthMode(controller.signal).then((m) => {
      if (!controller.signal.aborted) setMode(m);
    });
    return () => controller.abort();
  }, []);

  if (search.get('token')) return <AuthCallback />;

  return (
    <AuthCard>
      <title>Sign in · Compete</title>
      <h1>Sign in</h1>
      <p className="muted">
        Compete presents analysis of publicly available negotiated rates and pricing data from health insurers.
      </p>
      {notice && (
        <p className="auth-notice" role="alert">
          {notice}
        </p>
      )}
      {mode === 'development' && <p className="auth-dev">Development sign-in: no account needed</p>}
      <button type="button" className="button button--primary" onClick={() => window.location.assign('/api/auth/login')}>
        Sign in
      </button>
    </AuthCard>
  );
}
