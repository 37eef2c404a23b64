/**
 * The methodology page: how every live figure is computed, in the project's own words, so an
 * analyst or an auditor can redo any number by hand. Source of the rules: metrics.md; the code
 * that applies them: scripts/convert/build-tables.ts (medians) and workers/api (the rest).
 * Sections carry ids so a screen can link to the rule behind a figure (`/methodology#variance`).
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import './Methodology.css';

export function Methodology() {
  const { hash } = useLocation();
  // A link from a screen's figure (`/methodology#variance`) lands on its rule.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
  return (
    <article className="methodology" aria-labelledby="methodology-title">
      <h1 id="methodology-title">Methodology</h1>
      <p className="methodology-lead">
        Every number on the live screens comes from the insurers' published Transparency in Coverage
        files, converted into the dataset that is open, and from nothing else. This page says how each
        one is computed. Money is in US dollars; variances are percentages.
      </p>

      <section id="rows" aria-labelledby="rows-title">
        <h2 id="rows-title">Which published rates are counted</h2>
        <ul>
          <li>
            A <strong>rate row</strong> is one price an insurer published for one billing code at one
            provider: its billing class, negotiated type, place-of-service codes, modifiers and the file it
            came from travel with it.
          </li>
          <li>
            A <strong>provider</strong> is an NPI. When a provider group lists no usable NPI (an empty list
            or the placeholder <code>0</code>), the group's TIN stands in, written <code>TIN:</code> followed by
            the nine digits without a hyphen. A group of several NPIs counts once for each of them.
          </li>
          <li>
            Only <strong>dollar rates</strong> enter a price: negotiated type <code>negotiated</code>,{' '}
            <code>fee schedule</code> or <code>derived</code>, with a rate above zero. Rates expressed as a
            percentage of billed charges or as a per-diem amount stay in the data and appear wherever single
            rows are listed, but they are never averaged with dollar prices.
          </li>
          <li>
            A <strong>service</strong> is a CPT or HCPCS code. Other code types (revenue codes, DRGs, NDCs,
            custom codes) are kept but do not enter the service figures.
          </li>
          <li>
            The same rate published twice (same insurer, month, code, provider, class, type, amount,
            places of service and modifiers) counts once.
          </li>
          <li>
            A rate whose provider group could not be resolved (a remote reference that failed, an id the file
            never declares) is kept and counted in the data coverage figures, but has no provider and so
            enters no price.
          </li>
          <li>
            Filters narrow the rows before anything is computed: billing class (a row marked{' '}
            <code>both</code> passes either class), the provider's state from the NPI registry, the service
            category, and selected providers where a screen offers that choice.
          </li>
        </ul>
      </section>

      <section id="snapshots" aria-labelledby="snapshots-title">
        <h2 id="snapshots-title">Months</h2>
        <p>
          A <strong>snapshot</strong> is the month an insurer published its files (from the catalog, or else from
          the files' <code>last_updated_on</code>). A screen shows the latest month unless it says otherwise.
          For a given month, each insurer contributes its most recent snapshot on or before that month; an
          insurer with none is left out.
        </p>
      </section>

      <section id="price" aria-labelledby="price-title">
        <h2 id="price-title">Prices per service</h2>
        <dl>
          <dt id="median">Insurer price</dt>
          <dd>
            The median of the insurer's counted dollar rates for the service: the middle value, or halfway
            between the two middle values when their number is even. A median resists the junk values and
            outliers that published files contain, where a mean would not.
          </dd>
          <dt id="reference">Reference price</dt>
          <dd>The price of the reference insurer named in the dataset (our own insurer).</dd>
          <dt id="market">Market average (Selected Avg)</dt>
          <dd>
            The plain mean of the competitors' prices: every other insurer that has a dollar rate for the
            service, or only the competitors you selected that have one.
          </dd>
          <dt id="variance">Variance</dt>
          <dd>
            How far the reference price sits from the market average, as a percentage of the market average:
            100 × (reference − market) ÷ market. A service without a reference price or without any
            competitor price has no variance: it is shown with a dash and left out of every average.
          </dd>
          <dt id="overpayment">Overpayment</dt>
          <dd>Reference price minus market average, in dollars per claim.</dd>
          <dt id="claims">Claims volume</dt>
          <dd>
            The reference insurer's own number of claims for the service, from the claims input; zero when the
            input does not list the code.
          </dd>
          <dt id="savings">Potential savings</dt>
          <dd>Overpayment × claims volume when the overpayment is positive; zero otherwise.</dd>
        </dl>
      </section>

      <section id="dashboard" aria-labelledby="dashboard-title">
        <h2 id="dashboard-title">Dashboard and summary figures</h2>
        <dl>
          <dt id="average-overpayment">Average Overpayment</dt>
          <dd>
            The mean of the services' variances weighted by their claims volume; when no service has claims, the
            plain mean. Only services that have a variance take part.
          </dd>
          <dt>Top Overpaid Service</dt>
          <dd>The service with the largest variance.</dd>
          <dt>Claims Above Market</dt>
          <dd>Among the services with a variance, the percentage whose variance is above zero.</dd>
          <dt>Top 10 Overpaid Services</dt>
          <dd>The ten largest variances, largest first.</dd>
          <dt id="region">Variance by Region</dt>
          <dd>
            For each state, the Average Overpayment computed from the rates of providers in that state, weighted
            by that state's claims when the claims input gives states, else by the national counts.
          </dd>
          <dt id="trend">Overpayment Trend</dt>
          <dd>The Average Overpayment of each month, oldest first; a month where no service has a variance is left out.</dd>
          <dt>Services Overpaying and Avg Overpayment (comparison)</dt>
          <dd>
            Computed over every service that passes the category and billing-class filters, before the
            &lsquo;Show only overpaying services&rsquo; choice: how many have a positive overpayment out of
            all of them, and their Average Overpayment.
          </dd>
        </dl>
      </section>

      <section id="search" aria-labelledby="search-title">
        <h2 id="search-title">Live search</h2>
        <p>
          For one service, provider and insurer, each distinct combination of billing class, negotiated type,
          places of service and modifiers of that insurer's rates is one result row, with its published rate as
          the <strong>Price</strong>. The <strong>Reference Price</strong> is the reference insurer's dollar rate
          for the same service, provider and billing class (the median when there are several). The{' '}
          <strong>Market Average</strong> is the mean, over the competitors that have a dollar rate there, of
          each competitor's median. A percentage row's price reads as a percentage of billed charges, a per-diem
          row's as dollars per day, and neither enters the reference price or the market average.
        </p>
      </section>

      <section id="alerts" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Alerts</h2>
        <p>
          Alerts compare the latest month with the month before, for the reference insurer, per service and
          per state, and for the whole market (region &lsquo;All&rsquo;). No alert is raised against a month
          that has no value for the figure compared.
        </p>
        <ul>
          <li><strong>Price spike</strong>: the reference price rose by 10 % or more (high from 25 %, medium from 15 %).</li>
          <li><strong>Outlier</strong>: the variance is 20 % or more (high from 40 %, medium from 30 %).</li>
          <li><strong>Market shift</strong>: the market average moved by 10 % or more either way (high from 25 %, medium from 15 %).</li>
        </ul>
        <p>
          An alert keeps the same identity for the same type, code, region and month, so acknowledging it
          survives a reload and a new conversion of the same files.
        </p>
      </section>

      <section id="names" aria-labelledby="names-title">
        <h2 id="names-title">Names and categories</h2>
        <p>
          A service is named from the services input when there is one, else by the reference insurer's own
          name for the code, else by the name most files use. Its category comes from the services input, else
          from the CPT range of the code: 99202–99215 office visit, 99281–99285 emergency, 92920–93799 and
          33010–37799 cardiac, 80047–89398 lab, 70010–79999 radiology, 10004–69990 surgical, anything else
          other.
        </p>
      </section>

      <section id="rounding" aria-labelledby="rounding-title">
        <h2 id="rounding-title">Rounding</h2>
        <p>
          Computations keep full precision. Only the screen rounds, half away from zero: dollars to whole
          dollars with thousands separators, percentages to one decimal, with a sign where a variance or an
          overpayment can go either way (+11.7 %, −6.7 %).
        </p>
      </section>
    </article>
  );
}
