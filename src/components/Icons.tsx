/**
 * Inline SVG icons (bundled; no icon font or CDN). Decorative: `aria-hidden`, so the control that
 * holds one must carry its own label.
 */
import type { ReactElement, ReactNode } from 'react';

function Svg({ children, size = 20 }: { children: ReactNode; size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const MenuIcon = () => <Svg><path d="M4 6h16M4 12h16M4 18h16" /></Svg>;
export const CloseIcon = () => <Svg><path d="M6 6l12 12M18 6L6 18" /></Svg>;
export const BellIcon = () => (
  <Svg><path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" /><path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" /></Svg>
);
export const UserIcon = () => (
  <Svg size={18}><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0 1 16 0" /></Svg>
);
export const ChevronDownIcon = () => <Svg size={16}><path d="M6 9l6 6 6-6" /></Svg>;
export const HomeIcon = () => <Svg size={18}><path d="M3 11l9-8 9 8" /><path d="M5 10v10h14V10" /></Svg>;
export const CompareIcon = () => <Svg size={18}><path d="M4 20V10M10 20V4M16 20v-7M22 20H2" /></Svg>;
export const AlertIcon = () => (
  <Svg size={18}><path d="M12 3l10 18H2L12 3z" /><path d="M12 10v4M12 17.5v.01" /></Svg>
);
export const MapIcon = () => <Svg size={18}><path d="M9 4L3 6v14l6-2 6 2 6-2V4l-6 2-6-2z" /><path d="M9 4v14M15 6v14" /></Svg>;
export const SettingsIcon = () => (
  <Svg size={18}><circle cx="12" cy="12" r="3" /><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1" /></Svg>
);
export const SignOutIcon = () => <Svg size={16}><path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h11" /></Svg>;
export const ArrowUpIcon = () => <Svg size={14}><path d="M12 19V5M5 12l7-7 7 7" /></Svg>;
export const ArrowDownIcon = () => <Svg size={14}><path d="M12 5v14M19 12l-7 7-7-7" /></Svg>;
export const SearchIcon = () => <Svg size={16}><circle cx="11" cy="11" r="7" /><path d="M21 21l-4.3-4.3" /></Svg>;
export const DollarIcon = () => <Svg size={18}><path d="M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6" /></Svg>;
export const TrendUpIcon = () => <Svg size={18}><path d="M3 17l6-6 4 4 8-8" /><path d="M15 7h6v6" /></Svg>;
export const UsersIcon = () => (
  <Svg size={18}><circle cx="9" cy="8" r="4" /><path d="M2 21a7 7 0 0 1 14 0" /><path d="M16 4a4 4 0 0 1 0 8M22 21a7 7 0 0 0-4-6.3" /></Svg>
);
export const ActivityIcon = () => <Svg size={18}><path d="M22 12h-4l-3 9L9 3l-3 9H2" /></Svg>;
export const FileIcon = () => <Svg size={18}><path d="M14 3H6v18h12V7l-4-4z" /><path d="M14 3v4h4" /></Svg>;
