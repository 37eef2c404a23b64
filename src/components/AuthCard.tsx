/** The centred card of the sign-in, callback and logout pages (outside the protected shell). */
import type { ReactElement, ReactNode } from 'react';
import './AuthCard.css';

export function AuthCard({ children }: { children: ReactNode }): ReactElement {
  return (
    <main className="auth-page">
      <div className="auth-card panel">
        <div className="auth-card__brand">
          <span className="auth-card__logo" aria-hidden="true">C</span>
          <span className="auth-card__name">Compete</span>
        </div>
        {children}
      </div>
    </main>
  );
}
