/**
 * The compact 'Competitor Prices' cell: each competitor's short name and price (USD), in the order
 * of the insurer list; insurers without a price are left out; '-' when none has one.
 */
import type { ReactElement } from 'react';
import type { LiveInsurer } from '../../../contract/api';
import { formatUsd } from '../../../contract/format';

export function CompetitorPrices({ prices, competitors }: { prices: Record<string, number>; competitors: LiveInsurer[] }): ReactElement {
  const known = new Set(competitors.map((c) => c.id));
  const entries = [
    ...competitors.filter((c) => prices[c.id] != null).map((c) => ({ id: c.id, name: c.shortName, title: c.name, price: prices[c.id] })),
    // A priced id missing from the insurer list still shows, by its id.
    ...Object.keys(prices).filter((id) => !known.has(id)).map((id) => ({ id, name: id, title: id, price: prices[id] })),
  ];
  if (entries.length === 0) return <span className="muted">-</span>;
  return (
    <ul className="competitor-prices">
      {entries.map((e) => (
        <li key={e.id} title={e.title}>
          <span className="competitor-prices__name">{e.name}</span>
          <span className="competitor-prices__price">{formatUsd(e.price)}</span>
        </li>
      ))}
    </ul>
  );
}
