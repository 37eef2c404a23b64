/** Alerts (/alerts): a 'coming soon' placeholder, docs/screens.md (Placeholder screens). */
import type { ReactElement } from 'react';
import { Placeholder } from '../components/Placeholder';

export function Alerts(): ReactElement {
  return <Placeholder title="Alerts" message="Alerts are coming soon." />;
}
