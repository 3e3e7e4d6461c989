import { useMemo } from 'react';
import { useBanner, type Banner } from '../../shared/lib/banners';
import { useProfile } from './profile';

const PRIVATE_MODE_BANNER: Banner = {
  id: 'private-mode',
  order: 1,
  textKey: 'banners.privateMode',
  to: '/settings',
  highlight: 'private-mode',
  tone: 'warning',
};

const AMNESIA_MODE_BANNER: Banner = {
  id: 'amnesia-mode',
  order: 2,
  textKey: 'banners.amnesiaMode',
  to: '/settings',
  highlight: 'amnesia-mode',
  tone: 'info',
};

/** Private mode and amnesia mode each show a banner while on (docs/product.md §4 "Toggles"). */
export function ProfileBanners() {
  const { data } = useProfile();
  const privateOn = data?.is_global_privacy_mode_enabled ?? false;
  const amnesiaOn = data?.is_amnesia_mode_enabled ?? false;
  useBanner(useMemo(() => (privateOn ? PRIVATE_MODE_BANNER : null), [privateOn]));
  useBanner(useMemo(() => (amnesiaOn ? AMNESIA_MODE_BANNER : null), [amnesiaOn]));
  return null;
}
