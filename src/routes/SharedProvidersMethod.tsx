/**
 * The Methodology page's section on "At shared providers" (metrics.md, Per comparison unit), the
 * option of the live comparison and the live dashboard (`#shared`, where their note links).
 */
import type { ReactElement } from 'react';

export function SharedProvidersMethod(): ReactElement {
  return (
    <section id="shared" aria-labelledby="shared-title">
      <h2 id="shared-title">At shared providers</h2>
      <p>
        Insurers do not contract with the same providers, so a difference in price can come from a difference in
        network. The &lsquo;At shared providers&rsquo; switch of the comparison and the dashboard (off by default)
        answers a narrower question: where we and the others contract with the same providers, who pays more?
      </p>
      <p>
        For each comparison unit (and state, when one is chosen), in the screen's month, each insurer with its
        snapshot for that month: a competitor's price is the median of its valid rates only at providers where the
        reference insurer has a valid rate; the reference price is the median of its valid rates only at providers
        where at least one competitor of the dataset has one, whichever competitors you select. Providers match by
        provider id: the NPI, or the TIN where a group has no NPI. The support, market average, variance,
        overpayment, claims, savings, low-confidence mark and every dashboard figure then follow from these prices as
        above. A unit without any price at shared providers is not listed. The alerts stay over every provider.
      </p>
    </section>
  );
}
