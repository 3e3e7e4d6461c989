import { BANNER_OFFSET_REM, BOTTOM_BAR_HEIGHT_REM } from '@homesitter/contract/runtime';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavigationType, Outlet, useLocation, useNavigationType } from 'react-router';
import { FreeEventsBanner } from '../../features/billing/FreeEventsBanner';
import { ChatAlerts } from '../../features/chat/ChatAlerts';
import { ChatLiveSync } from '../../features/chat/ChatLiveSync';
import { ProfileBanners } from '../../features/user/ProfileBanners';
import { ProfileLanguageSync } from '../../features/language/ProfileLanguageSync';
import { MemoriesPrefetch } from '../../features/memories/MemoriesPrefetch';
import { WebPushSync } from '../../features/notifications/useWebPush';
import { BannerProvider, useActiveBanners } from '../../shared/lib/banners';
import { setSidePanelOpen, useSidePanelOpen } from '../../shared/lib/sidePanel';
import { useRealtimeSession } from '../../shared/lib/useRealtime';
import { BannerStack } from './BannerStack';
import { BottomBar } from './BottomBar';
import { isBottomBarHidden } from './navItems';
import { SidePanel } from './SidePanel';
import { Sidebar } from './Sidebar';

/** Slides the page in for 0.2 s: from the right going forward, from the left going back. */
function PageTransition() {
  const location = useLocation();
  const navigationType = useNavigationType();
  return (
    <div
      key={location.pathname}
      className={navigationType === NavigationType.Pop ? 'animate-slide-back' : 'animate-slide-forward'}
    >
      <Outlet />
    </div>
  );
}

function Shell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const bannerCount = useActiveBanners().length;
  const menuOpen = useSidePanelOpen();
  // Signing out ends the shell: the next session starts with the menu closed.
  useEffect(() => () => setSidePanelOpen(false), []);
  const barHidden = isBottomBarHidden(pathname);
  const bottom = barHidden ? 'var(--safe-bottom)' : `calc(${BOTTOM_BAR_HEIGHT_REM}rem + var(--safe-bottom))`;
  return (
    <div
      className="min-h-dvh"
      style={{
        ['--banner-offset' as string]: `${bannerCount * BANNER_OFFSET_REM}rem`,
        ['--content-bottom' as string]: bottom,
      }}
    >
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-brand-500 px-3 py-2 text-slate-950 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('nav.skipToContent')}
      </a>
      <Sidebar />
      <BannerStack />
      <main
        id="main"
        className="pt-[calc(var(--safe-top)+var(--banner-offset))] pb-[var(--content-bottom)] lg:pb-0 lg:pl-[300px]"
      >
        <PageTransition />
      </main>
      {barHidden ? null : <BottomBar menuOpen={menuOpen} onOpenMenu={() => setSidePanelOpen(true)} />}
      <SidePanel open={menuOpen} onOpenChange={setSidePanelOpen} />
      <ProfileBanners />
      <FreeEventsBanner />
      <ProfileLanguageSync />
      <MemoriesPrefetch />
      <WebPushSync />
      <ChatLiveSync />
      <ChatAlerts />
    </div>
  );
}

/**
 * The signed-in, verified part of the app. It owns the session's one realtime connection (opened here, closed
 * on sign-out) and keeps the chat's cache current from it, so every screen reads the same live state.
 */
export default function AppLayout() {
  useRealtimeSession();
  return (
    <BannerProvider>
      <Shell />
    </BannerProvider>
  );
}
