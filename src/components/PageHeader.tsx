/**
 * A screen's title block: the h1 (its id labels the page section), the muted description, and on
 * the right either the 'Sample data' badge or the screen's own control.
 */
import type { ReactElement, ReactNode } from 'react';
import '../styles/screens.css';

export interface PageHeaderProps {
  /** id of the h1, for the page's `aria-labelledby`. */
  id: string;
  title: string;
  description: ReactNode;
  /** Shows the 'Sample data' badge (screens on src/sample data). */
  sample?: boolean;
  /** A control at the right, e.g. a switch. */
  aside?: ReactNode;
}

export function PageHeader({ id, title, description, sample = false, aside }: PageHeaderProps): ReactElement {
  return (
    <header className="page-header">
      <div>
        <h1 id={id}>{title}</h1>
        <p className="muted">{description}</p>
      </div>
      {sample && <span className="sample-badge">Sample data</span>}
      {aside}
    </header>
  );
}
