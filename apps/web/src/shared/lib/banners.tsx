import { MAX_BANNERS } from '@homesitter/contract/runtime';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export interface Banner {
  id: string;
  /** Lower first. */
  order: number;
  /** A translation key; `namespace:key` for one outside the main namespace (loaded before registering). */
  textKey: string;
  /** Interpolation values for the text, such as a `count` that picks the plural form. */
  textOptions?: Record<string, string | number>;
  /** The banner's own screen. */
  to: string;
  /** Highlight target emitted when clicked while already on `to`. */
  highlight: string;
  tone: 'warning' | 'info';
}

interface BannerRegistry {
  banners: Banner[];
  register: (banner: Banner) => () => void;
}

const BannerContext = createContext<BannerRegistry | null>(null);

/** Banners register themselves; the layout counts them to push content down (docs/product.md §4 "Banners"). */
export function BannerProvider({ children }: { children: ReactNode }) {
  const [byId, setById] = useState<ReadonlyMap<string, Banner>>(new Map());
  const register = useCallback((banner: Banner) => {
    setById((current) => new Map(current).set(banner.id, banner));
    return () =>
      setById((current) => {
        const next = new Map(current);
        next.delete(banner.id);
        return next;
      });
  }, []);
  const value = useMemo(
    () => ({
      banners: [...byId.values()].sort((a, b) => a.order - b.order).slice(0, MAX_BANNERS),
      register,
    }),
    [byId, register],
  );
  return <BannerContext.Provider value={value}>{children}</BannerContext.Provider>;
}

function useRegistry(): BannerRegistry {
  const registry = useContext(BannerContext);
  if (!registry) throw new Error('Banners must be used inside BannerProvider');
  return registry;
}

export function useActiveBanners(): Banner[] {
  return useRegistry().banners;
}

/** Shows `banner` while it is not null. */
export function useBanner(banner: Banner | null) {
  const { register } = useRegistry();
  useEffect(() => (banner ? register(banner) : undefined), [banner, register]);
}
