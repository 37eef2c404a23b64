/**
 * The methodology page: how every live figure is computed, in the project's own words, so an
 * analyst or an auditor can redo any number by hand. Source of the rules: metrics.md; the code
 * that applies them: scripts/convert (medians, benchmarks, validation) and workers/api (the rest).
 * Sections carry ids so a screen can link to the rule behind a figure (`/methodology#variance`).
 * The copyright notices of the CMS reference files come from the open dataset's manifest
 * (`GET /api/coverage`, `medicare.notices`).
 */
import { useEffect, type ReactElement } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { DEFAULT_VALIDATION } from '../../contract/dataset';
import { formatCount } from '../../contract/format';
import { ThinMark, UnitBadges } from '../components/live/UnitParts';
import { useApi } from '../components/live/use-api';
import { ReferenceNotices } from './ReferenceNotices';
import { SharedProvidersMethod } from './SharedProvidersMethod';
import './Methodology.css';

export function Methodology(): ReactElement {
  const { hash } = useLocation();
  const coverage = useApi('GET /api/coverage', {});
  const v = coverage.data?.validation ?? DEFAULT_VALIDATION;
  const x = (n: number) => `${Number(n.toPrecision(6))}×`;
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
            Filters narrow the rows before anything is computed: billing class (the Professional chip keeps
            professional units and units published as <code>both</code>, the Institutional chip institutional
            and <code>both</code> units), the provider's state from the NPI registry, the service category, and
            selected providers where a screen offers that choice.
          </li>
          <li>
            Every dollar rate of a service is checked against Medicare before it may count
            (see <a href="#validation">Validation</a>). A rate that fails stays listed wherever rows are listed,
            marked with the reason, but no price, average or figure uses it.
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

      <section id="units" aria-labelledby="units-title">
        <h2 id="units-title">Comparison units</h2>
        <p>
          One billing code can stand for several different prices, and comparing them with each other would
          be comparing different products. Every price, variance and figure is therefore computed for one{' '}
          <strong>comparison unit</strong>: a service together with three attributes of the rates behind it.
          The screens show them as small badges next to the code, for example{' '}
          <UnitBadges unit={{ billing_class: 'professional', component: '26', setting: 'facility' }} />.
        </p>
        <dl>
          <dt>Billing class</dt>
          <dd>
            <code>professional</code> (what a clinician bills), <code>institutional</code> (what a hospital or
            other facility bills) or <code>both</code>, exactly as the insurer published it. A rate published
            as <code>both</code> forms a unit of its own; it is never folded into either of the other two.
          </dd>
          <dt>Component</dt>
          <dd>
            Read from the modifiers: <code>26</code> when they include 26 (the professional component, the
            reading of a test), <code>TC</code> when they include TC (the technical component, the equipment and
            staff), otherwise <code>global</code> (both parts in one fee).
          </dd>
          <dt>Setting</dt>
          <dd>
            For professional and <code>both</code> rates: <code>facility</code> when every place-of-service
            code of the rate is a facility place (a hospital, a surgery centre, a nursing facility and the like),
            otherwise <code>non-facility</code>, which includes rates with no place of service at all.
            Institutional rates are always <code>facility</code>.
          </dd>
        </dl>
        <p>
          Why they are never mixed: a facility's fee for a procedure and the surgeon's fee for the same
          procedure are two separate bills; a professional component is a fraction of the global fee; and a
          clinician is paid less for work done in a hospital, where the hospital bears the practice costs, than
          in an office. Averaging across them would make a price depend on which kinds of rates an insurer
          happens to publish, and a change in that mix would look like a price change. A code with several
          units is listed once per unit, each row labelled.
        </p>
      </section>

      <section id="price" aria-labelledby="price-title">
        <h2 id="price-title">Prices per comparison unit</h2>
        <dl>
          <dt id="median">Insurer price</dt>
          <dd>
            The median of the insurer's valid dollar rates for the unit: the middle value, or halfway
            between the two middle values when their number is even. A median resists the junk values and
            outliers that published files contain, where a mean would not. The number of distinct providers
            behind it is its <strong>support</strong>.
          </dd>
          <dt id="reference">Reference price</dt>
          <dd>The price of the reference insurer named in the dataset (our own insurer).</dd>
          <dt id="market">Market average (Selected Avg)</dt>
          <dd>
            The plain mean of the competitors' prices: every other insurer that has a dollar rate for the
            unit, or only the competitors you selected that have one.
          </dd>
          <dt id="variance">Variance</dt>
          <dd>
            How far the reference price sits from the market average, as a percentage of the market average:
            100 × (reference − market) ÷ market. A unit without a reference price or without any
            competitor price has no variance: it is shown with a dash and left out of every average.
          </dd>
          <dt id="overpayment">Overpayment</dt>
          <dd>Reference price minus market average, in dollars per claim.</dd>
          <dt id="claims">Claims volume</dt>
          <dd>
            The reference insurer's own number of claims for the code, from the claims input (zero when the
            input does not list it), split by billing class: a claims file with a class column gives each class
            its own count; without one, the count is a clinician's claim, and also a facility's claim when the
            hospital outpatient schedule pays the code or the code has no professional unit (a procedure done in
            a hospital produces both bills; an office visit only one). Inside a class, the whole count goes to
            the class's <strong>main unit</strong>, the one whose reference price rests on the most providers
            (ties go to global before 26 before TC, and to non-facility before facility); the class's other
            units show zero claims, so no claim is counted twice.
          </dd>
          <dt id="savings">Potential savings</dt>
          <dd>Overpayment × claims volume when the overpayment is positive; zero otherwise.</dd>
          <dt id="medicare-pct">% of Medicare</dt>
          <dd>
            Beside every price, the small figure is that price as a percentage of Medicare's amount for the unit
            (see <a href="#medicare">Medicare benchmark</a>): for an insurer, the median over its rates of each
            rate divided by Medicare's amount; beside the market average, the mean of the competitors' figures.
            A dash means the unit has no Medicare benchmark.
          </dd>
        </dl>
      </section>

      <section id="thin" aria-labelledby="thin-title">
        <h2 id="thin-title">Low-confidence (thin) units</h2>
        <p>
          A price drawn from a single provider describes one contract, and says little about what the market
          pays. A unit is marked{' '}
          <ThinMark reason="the reference price rests on 1 provider" /> when its reference
          price rests on fewer providers than the dataset's <code>min_providers</code> setting, or when the
          competitors' prices, their providers added together, rest on fewer than that. The default is{' '}
          {formatCount(DEFAULT_VALIDATION.min_providers)}
          {v.min_providers !== DEFAULT_VALIDATION.min_providers ? ` (the open dataset uses ${formatCount(v.min_providers)})` : ''}. When
          you select providers on the comparison screen, the threshold becomes the smaller of that setting and
          the number of providers selected. The mark's tooltip says which side is short.
        </p>
        <p>
          A low-confidence unit stays in the tables with all its figures, but it enters none of the dashboard
          figures, none of the comparison summary cards and no alert.
        </p>
      </section>

      <SharedProvidersMethod />

      <section id="medicare" aria-labelledby="medicare-title">
        <h2 id="medicare-title">Medicare benchmark</h2>
        <p>
          Commercial prices are usually read as a multiple of what Medicare pays for the same service. The
          benchmark also tells a real dollar amount from a multiplier, a typing error or a placeholder. The
          amounts come from CMS fee schedule files shipped with the project; nothing is fetched from the
          network for them.
        </p>
        <dl>
          <dt>Professional and <code>both</code> rates</dt>
          <dd>
            The Physician Fee Schedule relative value file: the line of the code for the rate's component (the
            line with modifier 26 or TC, else the line without a modifier), using its facility or non-facility
            total to match the rate's setting, times the year's conversion factor. When that line is missing or
            its total is zero, the Clinical Laboratory Fee Schedule rate of the code, when above zero.
          </dd>
          <dt>Institutional rates</dt>
          <dd>
            The hospital outpatient (OPPS) Addendum B payment rate of the code, when above zero, except for drugs
            and biologicals paid per dose (status indicators G, K and K1). Office and clinic visits 99202–99215
            use the rate of G0463, the code hospitals bill for a clinic visit. Otherwise the Clinical Laboratory
            Fee Schedule rate, when above zero.
          </dd>
          <dt>No benchmark</dt>
          <dd>
            Any other rate, drug codes included: their published units and doses cannot be matched to Medicare's
            per-dose prices yet.
          </dd>
          <dt id="locality">National or at the provider's locality</dt>
          <dd>
            Every aggregate and every validation check uses the national amount, with no geographic adjustment.
            Where a single provider's rate is shown (the live search, the rate rows behind a price), its % of
            Medicare is at that provider's Medicare locality: the provider's ZIP code from the NPI registry leads,
            through CMS's ZIP-to-locality file, to the locality's cost indices, which weight the work, practice
            expense and malpractice parts of the Physician Fee Schedule amount. The screen says &lsquo;at
            provider's locality&rsquo; or &lsquo;national&rsquo;: national when the ZIP is unknown, when the
            locality depends on a ZIP+4, and for laboratory and hospital outpatient amounts, which have no
            local version.
          </dd>
        </dl>
      </section>

      <section id="validation" aria-labelledby="validation-title">
        <h2 id="validation-title">Validation</h2>
        <p>
          Each dollar rate of a service goes through four checks, in this order; the first one it fails becomes
          its reason, shown next to the rate wherever rows are listed. A rate that fails stays in the data and
          on screen, but enters no median, average, variance or any other figure.
        </p>
        <ol>
          <li>
            <strong>Source not in dollars</strong>: a file with at least 20 distinct prices that have a benchmark,
            whose median ratio to Medicare is under {x(DEFAULT_VALIDATION.source_min_ratio)} by default, is
            publishing something other than dollars (a multiplier, a percentage, cents); all its dollar rates fail.
          </li>
          <li>
            <strong>Below Medicare</strong>: the rate is under {x(DEFAULT_VALIDATION.min_ratio)} its Medicare amount
            by default, a floor set low enough that Medicaid plans, whose rates sit below Medicare's, are not
            thrown out.
          </li>
          <li>
            <strong>Above Medicare</strong>: the rate is over {x(DEFAULT_VALIDATION.max_ratio)} its Medicare amount
            by default, the upper end of what commercial contracts are known to pay.
          </li>
          <li>
            <strong>Outlier</strong>: a rate with no benchmark that is more than {x(DEFAULT_VALIDATION.outlier_factor)} (by
            default) above or below the median of all insurers' unbenchmarked rates for the same month, code, class
            and component that passed the first check, provided those rates come from at least 10 providers.
          </li>
        </ol>
        <p>
          The bounds can be changed in the catalog of a conversion; the values used are recorded with the dataset
          {coverage.data ? ` (this one: ${x(v.min_ratio)} and ${x(v.max_ratio)} Medicare, source check ${x(v.source_min_ratio)}, outlier factor ${x(v.outlier_factor)}, min_providers ${formatCount(v.min_providers)})` : ''}.
          The <Link to="/data-coverage">Data Coverage</Link> screen counts each file's failed rates by reason, and
          shows the headline Average Overpayment computed with validation and without it, so the effect of the
          checks can be seen in one line.
        </p>
      </section>

      <section id="dashboard" aria-labelledby="dashboard-title">
        <h2 id="dashboard-title">Dashboard and summary figures</h2>
        <p>
          In these figures a &lsquo;service&rsquo; is a comparison unit that has a variance and is not low
          confidence; the others are left out of every one of them.
        </p>
        <dl>
          <dt id="average-overpayment">Average Overpayment</dt>
          <dd>
            The mean of the services' variances weighted by their claims volume; when no service has claims, the
            plain mean.
          </dd>
          <dt>Top Overpaid Service</dt>
          <dd>The service with the largest variance, named with its code and unit.</dd>
          <dt>Claims Above Market</dt>
          <dd>The percentage of the services whose variance is above zero.</dd>
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
          places of service, modifiers and amount among that insurer's rates is one result row, with its
          published rate as the <strong>Price</strong>. The <strong>Reference Price</strong> is the median of the
          reference insurer's valid dollar rates at the same provider for the row's comparison unit (same class,
          component and setting). The <strong>Market Average</strong> is the mean, over the competitors that have
          valid dollar rates there for that unit, of each competitor's median. A percentage row's price reads as
          a percentage of billed charges, a per-diem row's as dollars per day, and neither enters the reference
          price or the market average. Each row also shows its % of Medicare at the provider's locality (or
          national, as labelled) and its validation result; a row that failed is marked with its reason and
          enters neither the reference price nor the market average.
        </p>
      </section>

      <section id="alerts" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Alerts</h2>
        <p>
          Alerts compare the latest month with the month before, for the reference insurer, per comparison unit
          and per state, and for the whole market (region &lsquo;All&rsquo;). No alert is raised against a month
          that has no value for the figure compared, nor on too few providers.
        </p>
        <ul>
          <li><strong>Price spike</strong>: the reference price rose by 10 % or more (high from 25 %, medium from 15 %); both months' reference prices must rest on enough providers.</li>
          <li><strong>Outlier</strong>: the variance is 20 % or more (high from 40 %, medium from 30 %), on a unit that is not low confidence.</li>
          <li><strong>Market shift</strong>: the market average moved by 10 % or more either way (high from 25 %, medium from 15 %); both months' competitor prices must rest on enough providers together.</li>
        </ul>
        <p>
          The list puts high severity first, then the largest dollar impact (the change or gap in dollars times
          the unit's claims). An alert keeps the same identity for the same type, code, unit, region and month, so
          acknowledging it survives a reload and a new conversion of the same files.
        </p>
      </section>

      <section id="names" aria-labelledby="names-title">
        <h2 id="names-title">Names and categories</h2>
        <p>
          A service is named from the services input when there is one. Otherwise it takes the short descriptor
          CMS publishes for the code: the Physician Fee Schedule's description, else the HCPCS Level II short
          description, else the descriptor of another bundled fee schedule. Only when none of them knows the code
          does the name come from the insurers' files (the name they use most often).
        </p>
        <p>
          Insurers' own item names are often internal labels (&lsquo;Other Services&rsquo;, codes with prefixes),
          so they never replace a descriptor. The one used most often is kept as the <strong>published name</strong> and
          shown smaller, under the service name (&lsquo;Published as: ...&rsquo;), when it says something different.
          CPT descriptors belong to the American Medical Association and reach the app through the CMS files under
          the notices below; a conversion can leave them out (catalog setting <code>cpt_descriptors: false</code>),
          and names then come from the services input or the files.
        </p>
        <p>
          The category comes from the services input, else from the CPT range of the code: 99202–99215 office
          visit, 99281–99285 emergency, 36000–36598 other (vascular access, blood draws), 92920–93799 and
          33010–37799 cardiac, 80047–89398 lab, 70010–79999 radiology, 10004–69990 surgical, anything else other;
          the first range that holds the code wins.
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

      <section id="notices" aria-labelledby="notices-title">
        <h2 id="notices-title">CMS reference files and their notices</h2>
        <ReferenceNotices coverage={coverage.data} failed={coverage.status === 'error'} />
      </section>
    </article>
  );
}
