/** 'Export CSV': writes the rows on screen (`build()`) to a CSV file named after the filters. */
import type { ReactElement } from 'react';
import { downloadCsv, toCsv, type CsvValue } from './csv';

export interface ExportCsvButtonProps {
  fileName: string;
  /** The header and the rows, built when clicked. */
  build(): { header: readonly string[]; rows: ReadonlyArray<readonly CsvValue[]> };
  disabled?: boolean;
  label?: string;
}

export function ExportCsvButton({ fileName, build, disabled, label = 'Export CSV' }: ExportCsvButtonProps): ReactElement {
  return (
    <button type="button" className="button live-export" disabled={disabled} title={`Download ${fileName}`}
      onClick={() => {
        const { header, rows } = build();
        downloadCsv(fileName, toCsv(header, rows));
      }}>
      {label}
    </button>
  );
}
