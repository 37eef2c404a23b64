/**
 * What a live dashboard panel shows in place of its content until its own /api call answers,
 * docs/screens.md (Live dashboard): its loading text ('Loading trend...', `role="status"`), or,
 * when the call failed, its error ('Failed to load trend.', `role="alert"`) with the call's message.
 * The panel puts it in a box of its content's size (DashboardPanels, UsStateMap `pending`).
 */
import type { ReactElement } from 'react';
import type { ApiLoad } from './use-api';

export interface PanelPendingProps {
  load: ApiLoad<unknown>;
  /** 'Loading trend...' */
  loading: string;
  /** 'Failed to load trend.' */
  failed: string;
}

export function PanelPending({ load, loading, failed }: PanelPendingProps): ReactElement {
  if (load.status !== 'error') return <p className="live-status" role="status">{loading}</p>;
  return (
    <div className="live-pending-error" role="alert">
      <p><strong>{failed}</strong></p>
      {load.message && <p className="live-error-panel__detail">{load.message}</p>}
    </div>
  );
}
