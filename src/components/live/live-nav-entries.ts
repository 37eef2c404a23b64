/**
 * The navigation's second group, 'Live data', below the spec's five entries. Labels
 * avoid the spec entries' names as substrings, so 'Dashboard' or 'Price Comparison' still name
 * exactly one link each.
 */
export interface LiveNavEntry {
  label: string;
  to: string;
  icon: 'home' | 'compare' | 'search' | 'file' | 'activity';
}

export const LIVE_NAV_TITLE = 'Live data';

export const LIVE_NAV_ENTRIES: readonly LiveNavEntry[] = [
  { label: 'Live Overview', to: '/live-dashboard', icon: 'activity' },
  { label: 'Live Comparison', to: '/live-comparison', icon: 'compare' },
  { label: 'Live Search', to: '/live-search', icon: 'search' },
  { label: 'Data Coverage', to: '/data-coverage', icon: 'file' },
  { label: 'Snapshot', to: '/dataset', icon: 'file' },
  { label: 'Methodology', to: '/methodology', icon: 'home' },
];
