/** Regional analysis (/regional): a 'coming soon' placeholder, docs/screens.md (Placeholder screens). */
import type { ReactElement } from 'react';
import { Placeholder } from '../components/Placeholder';

export function Regional(): ReactElement {
  return <Placeholder title="Regional Analysis" message="Regional analysis is coming soon." />;
}
