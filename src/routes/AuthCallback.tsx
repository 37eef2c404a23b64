/**
 * /auth/callback, docs/screens.md (Shell and sign-in): stores the `token` query parameter as the access
 * token and goes to /; without a token, back to /login.
 */
import { useEffect, type ReactElement } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { AuthCard } from '../components/AuthCard';
import { useAppStore } from '../store';

export function AuthCallback(): ReactElement {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useAppStore((s) => s.signIn);
  const token = search.get('token');

  useEffect(() => {
    if (token) {
      signIn(token);
      void navigate('/', { replace: true });
    } else {
      void navigate('/login', { replace: true });
    }
  }, [token, signIn, navigate]);

  return (
    <AuthCard>
      <title>Signing in · Compete</title>
      <p role="status">Signing in...</p>
    </AuthCard>
  );
}
