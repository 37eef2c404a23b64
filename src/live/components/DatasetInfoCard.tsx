/** Which dataset answers the live screens: origin or local, name, created when, snapshots (GET /api/dataset). */
import type { ReactElement } from 'react';
import type { DatasetInfo } from '../../../contract/api';
import { formatCount } from '../../../contract/rules/format';

export function DatasetInfoCard({ info }: { info: DatasetInfo }): ReactElement {
  return (
    <dl className="dataset-info" data-testid="dataset-info">
      <dt>Source</dt>
      <dd data-testid="dataset-origin">{info.origin === 'local' ? `Local snapshot: ${info.name}` : `Server (${info.name})`}</dd>
      <dt>Created</dt>
      <dd data-testid="dataset-created">{info.created_at}</dd>
      <dt>Snapshots</dt>
      <dd data-testid="dataset-snapshots">{info.snapshots.join(', ')}</dd>
      <dt>Reference insurer</dt>
      <dd>{info.reference_insurer}</dd>
      <dt>Insurers</dt>
      <dd>{formatCount(info.insurers)}</dd>
      <dt>Rate rows</dt>
      <dd>{formatCount(info.rate_rows)}</dd>
      <dt>Bytes read so far</dt>
      <dd>{formatCount(info.bytes_read)}</dd>
    </dl>
  );
}
