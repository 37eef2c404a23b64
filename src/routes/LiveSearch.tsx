/** The live search (/live-search, product-spec §2 Routes): not built yet; says so honestly. */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Placeholder } from '../components/Placeholder';

export function LiveSearch(): ReactElement {
  return (
    <Placeholder title="Live Service Price Search" message="This screen arrives in a later release.">
      <p className="muted">
        It will find the price of one service at one provider under one insurer. Meanwhile, the <Link to="/live-comparison">live price comparison</Link> works on the current dataset.
      </p>
    </Placeholder>
  );
}
