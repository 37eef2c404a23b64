/** The shell's navigation entries, in order (product-spec §2 Shell). */
export interface NavEntry {
  label: string;
  to: string;
  icon: 'home' | 'compare' | 'alert' | 'map' | 'settings';
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/', icon: 'home' },
  { label: 'Price Comparison', to: '/comparison', icon: 'compare' },
  { label: 'Alerts', to: '/alerts', icon: 'alert' },
  { label: 'Regional Analysis', to: '/regional', icon: 'map' },
  { label: 'Settings', to: '/settings', icon: 'settings' },
];
