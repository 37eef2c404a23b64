/** The live dashboard (/live-dashboard, product-spec §2 Routes): not built yet; says so honestly. */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Placeholder } from '../components/Placeholder';

export function LiveDashboard(): ReactElement {
  return (
    <Placeholder title="Data Comparison Tool (Live)" message="This screen arrives in a later release.">
      <p className="muted">
        It will show the dashboard figures computed from the dataset. Meanwhile, the <Link to="/live-comparison">live price comparison</Link> works on the current dataset.
      </p>
    </Placeholder>
  );
}
