/**
 * Opens an auditor's local snapshot: a directory (`webkitdirectory`) or several files. The worker
 * checks the manifest and the SHA-256 of every file (progress shown), then answers from it; a wrong
 * or damaged snapshot shows the file and the problem, and the dataset in use stays.
 */
import { useState, type ChangeEvent, type ReactElement } from 'react';
import type { HashProgress, LocalFile, LocalOpenResult } from '../../../contract/worker';
import { openLocalDataset } from '../../api/interceptor';

/** The picked files as the worker wants them: path inside the directory, and the File. */
export function toLocalFiles(list: FileList | readonly File[]): LocalFile[] {
  return [...list].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

type Status = { kind: 'idle' } | { kind: 'checking'; progress: HashProgress | null } | { kind: 'done'; result: LocalOpenResult };

export function LocalSnapshotPicker({ onOpened }: { onOpened: () => void }): ReactElement {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  async function open(event: ChangeEvent<HTMLInputElement>): Promise<void> {
    const files = event.target.files;
    if (!files || files.length === 0) return;
    setStatus({ kind: 'checking', progress: null });
    let result: LocalOpenResult;
    try {
      result = await openLocalDataset(toLocalFiles(files), (progress) => setStatus({ kind: 'checking', progress }));
    } catch (error) {
      result = { ok: false, file: 'dataset', problem: error instanceof Error ? error.message : String(error) };
    }
    setStatus({ kind: 'done', result });
    event.target.value = '';
    if (result.ok) onOpened();
  }

  const dirProps = { webkitdirectory: '', directory: '' } as Record<string, string>;
  const busy = status.kind === 'checking';
  return (
    <div className="local-snapshot">
      <label>
        Open a dataset directory{' '}
        <input type="file" data-testid="open-directory" disabled={busy} onChange={(e) => void open(e)} {...dirProps} />
      </label>
      <label>
        or its files{' '}
        <input type="file" data-testid="open-files" multiple disabled={busy} onChange={(e) => void open(e)} />
      </label>
      {status.kind === 'checking' && (
        <p role="status" data-testid="snapshot-progress">
          {status.progress
            ? `Checking ${status.progress.file || 'files'}: ${status.progress.filesDone} of ${status.progress.filesTotal} files, ` +
              `${Math.round((100 * status.progress.bytesDone) / Math.max(1, status.progress.bytesTotal))}%`
            : 'Reading the manifest...'}
        </p>
      )}
      {status.kind === 'done' && !status.result.ok && (
        <p role="alert" data-testid="snapshot-error">
          Cannot open this snapshot: {status.result.file}: {status.result.problem}. The dataset in use is unchanged.
        </p>
      )}
      {status.kind === 'done' && status.result.ok && (
        <p role="status" data-testid="snapshot-opened">
          Local snapshot checked and opened.
        </p>
      )}
    </div>
  );
}
