/**
 * The dataset screen (/dataset): which dataset answers the live screens (origin or local, created
 * when, snapshots) and a picker to open an auditor's local snapshot from disk. The navigation link
 * is the shell's.
 */
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import type { DatasetInfo } from '../../../contract/api';
import { apiCall, errorMessage } from '../../api/client';
import { DatasetInfoCard } from '../components/DatasetInfoCard';
import { LocalSnapshotPicker } from '../components/LocalSnapshotPicker';
import '../components/dataset.css';
import { PageHeader } from '../../components/PageHeader';

export function DatasetScreen(): ReactElement {
  const [info, setInfo] = useState<DatasetInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    apiCall('GET /api/dataset', {})
      .then((d) => {
        setInfo(d);
        setError(null);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, []);

  useEffect(load, [load]);

  return (
    <section className="dataset-screen page" aria-labelledby="dataset-title">
      <title>Dataset · Compete</title>
      <PageHeader id="dataset-title" title="Dataset"
        description="The Parquet dataset every live screen answers from." />
      <div className="panel">
        {error && <p role="alert">{error}</p>}
        {!info && !error && <p role="status">Loading...</p>}
        {info && <DatasetInfoCard info={info} />}
      </div>
      <div className="panel">
        <h2>Open a local snapshot</h2>
        <p className="muted">
          Every file is checked against the manifest (SHA-256, in full) before the app switches to it; nothing is sent
          over the network.
        </p>
        <LocalSnapshotPicker onOpened={load} />
      </div>
    </section>
  );
}
