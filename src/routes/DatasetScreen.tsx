/**
 * The dataset screen: which dataset answers the live screens (origin or local, created when,
 * snapshots) and a picker to open an auditor's local snapshot from disk. The route and the
 * navigation link are wired by the shell.
 */
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import type { DatasetInfo } from '../../contract/api';
import { apiGet } from '../api/client';
import { DatasetInfoCard } from '../components/dataset/DatasetInfoCard';
import { LocalSnapshotPicker } from '../components/dataset/LocalSnapshotPicker';

export function DatasetScreen(): ReactElement {
  const [info, setInfo] = useState<DatasetInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    apiGet('GET /api/dataset', {})
      .then((d) => {
        setInfo(d);
        setError(null);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);

  useEffect(load, [load]);

  return (
    <section className="dataset-screen">
      <h1>Dataset</h1>
      {error && <p role="alert">{error}</p>}
      {!info && !error && <p>Loading...</p>}
      {info && <DatasetInfoCard info={info} />}
      <h2>Open a local snapshot</h2>
      <LocalSnapshotPicker onOpened={load} />
    </section>
  );
}
