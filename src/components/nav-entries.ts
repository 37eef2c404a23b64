/**
 * The shell's navigation, docs/screens.md (Shell and sign-in), in order: one entry type and one list
 * shape, groups of entries, for every place that lists the screens. The first group is the product's
 * five entries (no title); the second, 'Live data', the live screens. Labels of the second group avoid
 * the first group's names as substrings, so 'Dashboard' or 'Price Comparison' still name exactly
 * one link each.
 */

/** Every icon a navigation entry may name (src/components/Icons.tsx). */
export type NavIcon = 'home' | 'compare' | 'alert' | 'map' | 'settings' | 'search' | 'file' | 'activity';

export interface NavEntry {
  label: string;
  to: string;
  icon: NavIcon;
}

export interface NavGroup {
  /** Shown above the group's entries; null for the untitled first group. */
  title: string | null;
  entries: readonly NavEntry[];
}

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    title: null,
    entries: [
      { label: 'Dashboard', to: '/', icon: 'home' },
      { label: 'Price Comparison', to: '/comparison', icon: 'compare' },
      { label: 'Alerts', to: '/alerts', icon: 'alert' },
      { label: 'Regional Analysis', to: '/regional', icon: 'map' },
      { label: 'Settings', to: '/settings', icon: 'settings' },
    ],
  },
  {
    title: 'Live data',
    entries: [
      { label: 'Live Overview', to: '/live-dashboard', icon: 'activity' },
      { label: 'Live Comparison', to: '/live-comparison', icon: 'compare' },
      { label: 'Live Search', to: '/live-search', icon: 'search' },
      { label: 'Data Coverage', to: '/data-coverage', icon: 'file' },
      { label: 'Snapshot', to: '/dataset', icon: 'file' },
      { label: 'Methodology', to: '/methodology', icon: 'home' },
    ],
  },
];
