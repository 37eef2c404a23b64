/** Alerts (/alerts, product-spec §2 Routes): a 'coming soon' placeholder. */
import type { ReactElement } from 'react';
import { Placeholder } from '../components/Placeholder';

export function Alerts(): ReactElement {
  return <Placeholder title="Alerts" message="Alerts are coming soon." />;
}
