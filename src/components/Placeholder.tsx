/**
 * A screen that is not built yet: its title and an honest line saying so, optionally with a link
 * to a screen that works today.
 */
import type { ReactElement, ReactNode } from 'react';
import './Placeholder.css';

export interface PlaceholderProps {
  title: string;
  /** The line under the title, e.g. 'Alerts are coming soon.' */
  message: string;
  children?: ReactNode;
}

export function Placeholder({ title, message, children }: PlaceholderProps): ReactElement {
  return (
    <section className="placeholder" aria-labelledby="placeholder-title">
      <title>{`${title} · Compete`}</title>
      <h1 id="placeholder-title">{title}</h1>
      <div className="placeholder__card panel">
        <p className="placeholder__message">{message}</p>
        {children}
      </div>
    </section>
  );
}
