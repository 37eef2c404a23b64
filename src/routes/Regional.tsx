/** Regional analysis (/regional, product-spec §2 Routes): a 'coming soon' placeholder. */
import type { ReactElement } from 'react';
import { Placeholder } from '../components/Placeholder';

export function Regional(): ReactElement {
  return <Placeholder title="Regional Analysis" message="Regional analysis is coming soon." />;
}
