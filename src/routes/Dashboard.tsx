/** The dashboard (index route /, product-spec §2 Routes): not built yet; says so honestly. */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Placeholder } from '../components/Placeholder';

export function Dashboard(): ReactElement {
  return (
    <Placeholder title="Data Comparison Tool" message="This screen arrives in a later release.">
      <p className="muted">
        It will show overpayment KPIs, the top overpaid services, the trend and the variance by region. Meanwhile, the <Link to="/live-comparison">live price comparison</Link> works on the current dataset.
      </p>
    </Placeholder>
  );
}
