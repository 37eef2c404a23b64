/**
 * The Methodology page's last section: the CMS reference files the open dataset's benchmarks and
 * names come from (`GET /api/coverage`, manifest `medicare`), and the copyright notices they carry;
 * the AMA's notice of the CPT descriptors is shown even when no dataset answers.
 */
import type { ReactElement } from 'react';
import type { CoverageResult } from '../../contract/api';
import { formatCount } from '../../contract/rules/format';

/** Shown when no dataset answers: the AMA's notice for the CPT descriptors the CMS files carry. */
const AMA_FALLBACK_NOTICE =
  'CPT codes and descriptions only are copyright American Medical Association. All rights reserved. CPT is a registered trademark of the American Medical Association.';

/** The CMS files the open dataset's benchmarks and names come from, and the notices they carry. */
export function ReferenceNotices({ coverage, failed }: { coverage: CoverageResult | null; failed: boolean }): ReactElement {
  const m = coverage?.medicare;
  const notices = m?.notices ?? [];
  const hasAma = notices.some((n) => /American Medical Association/i.test(n));
  return (
    <>
      {m ? (
        <p>
          {`The open dataset was benchmarked with the CMS ${m.year} files below (conversion factor $${m.conversion_factor} per RVU). `}
          {m.cpt_descriptors ? 'Service names may use the CPT descriptors they contain.' : 'Its conversion left CPT descriptors out of the service names.'}
        </p>
      ) : (
        <p className="muted">{failed ? 'No dataset is open: the notices of its CMS files cannot be read.' : 'Loading the notices of the open dataset...'}</p>
      )}
      <ul className="methodology-notices" aria-label="Copyright notices">
        {notices.map((n) => <li key={n}>{n}</li>)}
        {!hasAma && <li>{AMA_FALLBACK_NOTICE}</li>}
      </ul>
      {m && m.files.length > 0 && (
        <details className="methodology-files">
          <summary>{`The ${formatCount(m.files.length)} CMS reference files read`}</summary>
          <ul>
            {m.files.map((f) => (
              <li key={f.name}><code>{f.name}</code>{` · ${formatCount(f.bytes)} bytes · SHA-256 `}<code className="methodology-hash">{f.sha256}</code></li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

