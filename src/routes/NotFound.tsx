/** Any unknown path inside the shell: says so and links home. */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Placeholder } from '../components/Placeholder';

export function NotFound(): ReactElement {
  return (
    <Placeholder title="Page not found" message="There is no screen at this address.">
      <p>
        <Link to="/">Go to the dashboard</Link>
      </p>
    </Placeholder>
  );
}
