/**
 * Opens an auditor's local snapshot: a directory (`webkitdirectory`) or several files. The worker
 * checks the manifest and the SHA-256 of every file (progress shown), then answers from it; a wrong
 * or damaged snapshot shows the file and the problem, and the dataset in use stays.
 */
import { useRef, useState, type ChangeEvent, type ReactElement } from 'react';
import type { HashProgress, LocalFile, LocalOpenResult } from '../../../contract/api';
import { openLocalDataset } from '../../api/interceptor';

/** The picked files as the worker wants them: path inside the directory, and the File. */
export function toLocalFiles(list: FileList | readonly File[]): LocalFile[] {
  return [...list].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

type Status = { kind: 'idle' } | { kind: 'checking'; progress: HashProgress | null } | { kind: 'done'; result: LocalOpenResult };

export function LocalSnapshotPicker({ onOpened }: { onOpened: () => void }): ReactElement {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  /** The attempt whose progress may still be shown: progress comes over its own message channel
   * and can arrive after the result, so a late one must not turn 'done' back into 'checking'. */
  const attempt = useRef(0);

  async function open(event: ChangeEvent<HTMLInputElement>): Promise<void> {
    const files = event.target.files;
    if (!files || files.length === 0) return;
    const mine = ++attempt.current;
    setStatus({ kind: 'checking', progress: null });
    let result: LocalOpenResult;
    try {
      result = await openLocalDataset(toLocalFiles(files), (progress) => {
        if (attempt.current === mine) setStatus({ kind: 'checking', progress });
      });
    } catch (error) {
      result = { ok: false, file: 'dataset', problem: error instanceof Error ? error.message : String(error) };
    }
    attempt.current++;
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
