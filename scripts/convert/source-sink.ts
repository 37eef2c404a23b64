/**
 * The MrfSink of one in-network file: appends the reader's events to the working database
 * (scripts/convert/spool.ts) under that file's `source_id`, and keeps its problems and counts.
 */
import { createHash } from 'node:crypto';
import type {
  MrfHeader,
  MrfInNetworkItem,
  MrfProblem,
  MrfProvider,
  MrfProviderReference,
  MrfSink,
} from '../mrf/types';
import { providerId } from '../../contract/metrics';
import { appendText, type Spool } from './spool';
import type { ProblemLog } from './problems';

/** Prefix of the synthetic ids given to inline (v1) provider groups, which have none of their own. */
const INLINE_PREFIX = 'inline:';

/** Counts of one file as it was read. */
export interface SourceCounts {
  items: number;
  priceRows: number;
  providerReferences: number;
  remoteReferences: number;
}

/** A sink bound to one source; `header` is set once the reader reports it. */
export class SourceSink implements MrfSink {
  headerValue: MrfHeader | null = null;
  readonly counts: SourceCounts = { items: 0, priceRows: 0, providerReferences: 0, remoteReferences: 0 };
  private readonly inlineSeen = new Set<string>();
  private nextItemId = 0;

  constructor(
    private readonly spool: Spool,
    readonly sourceId: number,
    readonly file: string,
    private readonly problems: ProblemLog,
  ) {}

  header(h: MrfHeader): void {
    this.headerValue = h;
  }

  problem(p: MrfProblem): void {
    this.problems.add({ file: this.file, ...p });
  }

  providerReference(ref: MrfProviderReference, offset: number): void {
    const index = this.counts.providerReferences++;
    if (ref.providers.length === 0) {
      // A remote `location` group (v1) is not fetched in this version: it stays unresolved and
      // every rate naming it is counted as such (metrics.md, Rows that count).
      if (ref.location) this.counts.remoteReferences++;
      this.problem({
        code: ref.location ? 'unresolved_remote_reference' : 'empty_provider_group',
        message: ref.location
          ? `provider group ${ref.provider_group_id} is remote (${ref.location}) and was not fetched; its rates are unresolved`
          : `provider group ${ref.provider_group_id} has no provider; its rates are unresolved`,
        path: `$.provider_references[${index}]`,
        offset,
      });
      this.appendGroupRow(ref.provider_group_id, null, ref.location ?? null);
      return;
    }
    for (const p of ref.providers) this.appendGroupRow(ref.provider_group_id, p, null);
  }

  inNetworkItem(item: MrfInNetworkItem): void {
    const itemId = this.nextItemId++;
    this.counts.items++;
    const it = this.spool.items;
    it.appendInteger(this.sourceId);
    it.appendInteger(itemId);
    appendText(it, item.billing_code_type);
    appendText(it, item.billing_code);
    appendText(it, item.name);
    appendText(it, item.description);
    appendText(it, item.negotiation_arrangement);
    it.endRow();
    for (const rate of item.negotiated_rates) {
      const groupIds = [...rate.provider_references, ...rate.provider_groups.map((g) => this.inlineGroup(g))];
      if (groupIds.length === 0) groupIds.push('');
      for (const price of rate.prices) {
        for (const gid of groupIds) {
          const r = this.spool.rates;
          r.appendInteger(this.sourceId);
          r.appendInteger(itemId);
          appendText(r, gid);
          appendText(r, price.billing_class);
          appendText(r, price.negotiated_type);
          r.appendDouble(price.negotiated_rate);
          r.appendVarchar(price.service_code.join(','));
          r.appendVarchar(price.billing_code_modifier.join(','));
          appendText(r, price.expiration_date);
          appendText(r, price.setting);
          appendText(r, price.additional_information);
          r.endRow();
          this.counts.priceRows++;
        }
      }
    }
  }

  /** Stores an inline provider group once per file under an id derived from its content. */
  private inlineGroup(providers: MrfProvider[]): string {
    const key = providers.map((p) => `${p.npi ?? ''}|${p.tin_type}|${p.tin_value}`).sort().join(';');
    const id = INLINE_PREFIX + createHash('sha1').update(key).digest('hex').slice(0, 16);
    if (!this.inlineSeen.has(id)) {
      this.inlineSeen.add(id);
      for (const p of providers) this.appendGroupRow(id, p, null);
    }
    return id;
  }

  private appendGroupRow(groupId: string, p: MrfProvider | null, remote: string | null): void {
    const g = this.spool.groups;
    g.appendInteger(this.sourceId);
    g.appendVarchar(groupId);
    appendText(g, p ? providerId(p.npi, p.tin_value) : null);
    appendText(g, p?.npi ?? null);
    appendText(g, p?.tin_type ?? null);
    appendText(g, p?.tin_value ?? null);
    appendText(g, remote);
    g.endRow();
  }
}
