/** The price comparison (/comparison, product-spec §2 Routes): not built yet; says so honestly. */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Placeholder } from '../components/Placeholder';

export function Comparison(): ReactElement {
  return (
    <Placeholder title="Price Comparison" message="This screen arrives in a later release.">
      <p className="muted">
        It will compare the reference insurer's prices with selected competitors, with search and filters. Meanwhile, the <Link to="/live-comparison">live price comparison</Link> works on the current dataset.
      </p>
    </Placeholder>
  );
}
