import { Brain, Cctv, LifeBuoy, MessageCircle, Settings, Sparkles, type LucideIcon } from 'lucide-react';

export interface NavItem {
  to: string;
  labelKey: string;
  icon: LucideIcon;
}

/** The six main entries (docs/product.md §2 "Navigation and layout"). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/highlights', labelKey: 'nav.highlights', icon: Sparkles },
  { to: '/cameras', labelKey: 'nav.cameras', icon: Cctv },
  { to: '/chat', labelKey: 'nav.chat', icon: MessageCircle },
  { to: '/memories', labelKey: 'nav.memories', icon: Brain },
  { to: '/settings', labelKey: 'nav.settings', icon: Settings },
  { to: '/support', labelKey: 'nav.support', icon: LifeBuoy },
];

/** The bottom bar's four entries; the fifth slot is the menu button. */
export const BOTTOM_BAR_ITEMS = NAV_ITEMS.slice(0, 4);

/** Screens that bring their own bottom controls (composer, player, form actions) hide the bottom bar. */
export function isBottomBarHidden(pathname: string): boolean {
  return (
    pathname === '/chat' ||
    pathname === '/camera-preview' ||
    pathname === '/cameras/add' ||
    /^\/cameras\/[^/]+\/(view|fullscreen)$/.test(pathname) ||
    /^\/memories\/[^/]+\/new$/.test(pathname)
  );
}
