/** The earlier dashboard (/old-dashboard, product-spec §2 Routes): not built yet; says so honestly. */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Placeholder } from '../components/Placeholder';

export function OldDashboard(): ReactElement {
  return (
    <Placeholder title="Healthcare Price Transparency Dashboard" message="This screen arrives in a later release.">
      <p className="muted">
        It will show common services, the availability trend and the regional view. Meanwhile, the <Link to="/live-comparison">live price comparison</Link> works on the current dataset.
      </p>
    </Placeholder>
  );
}
