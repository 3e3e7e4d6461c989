import { useEffect } from 'react';

/** Leaves the app for the payment provider's hosted page (Checkout, billing portal). Tests replace it. */
export function openExternal(url: string): void {
  window.location.assign(url);
}

/** Runs `callback` when the browser shows this page again from its back-forward cache (back from Checkout). */
export function useOnReturnFromCache(callback: () => void): void {
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) callback();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [callback]);
}
