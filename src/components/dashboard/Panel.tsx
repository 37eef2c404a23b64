/**
 * The panel frame of the screens: a titled `section panel` with an optional one-line subtitle,
 * and the two-column row panels stand in (one column on narrow screens).
 */
import type { ReactElement, ReactNode } from 'react';
import '../../styles/screens.css';

export interface PanelProps {
  title: string;
  /** The muted line beside the title; none when undefined. */
  subtitle?: ReactNode;
  /** Extra classes of the panel element. */
  className?: string;
  children: ReactNode;
}

export function Panel({ title, subtitle, className, children }: PanelProps): ReactElement {
  return (
    <div className={className ? `section panel ${className}` : 'section panel'}>
      <div className="section__head">
        <h2>{title}</h2>
        {subtitle !== undefined && <p>{subtitle}</p>}
      </div>
      {children}
    </div>
  );
}

/** Two panels side by side on wide screens; `wideLeft` gives the first 3/5 of the width. */
export function PanelRow({ wideLeft = false, children }: { wideLeft?: boolean; children: ReactNode }): ReactElement {
  return <div className={wideLeft ? 'two-col two-col--wide-left' : 'two-col'}>{children}</div>;
}

/** The muted centred text a panel shows in place of an empty chart. */
export function PanelStatus({ children }: { children: ReactNode }): ReactElement {
  return <p className="section__status">{children}</p>;
}
