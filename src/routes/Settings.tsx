/** Settings (/settings, product-spec §2 Routes): a 'coming soon' placeholder. */
import type { ReactElement } from 'react';
import { Placeholder } from '../components/Placeholder';

export function Settings(): ReactElement {
  return <Placeholder title="Settings" message="Settings are coming soon." />;
}
