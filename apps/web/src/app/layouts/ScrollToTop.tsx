import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Every route change starts at the top, except the chat, which keeps its own scroll position. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname !== '/chat') window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
