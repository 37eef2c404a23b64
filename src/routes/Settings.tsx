/** Settings (/settings): a 'coming soon' placeholder, docs/screens.md (Placeholder screens). */
import type { ReactElement } from 'react';
import { Placeholder } from '../components/Placeholder';

export function Settings(): ReactElement {
  return <Placeholder title="Settings" message="Settings are coming soon." />;
}
