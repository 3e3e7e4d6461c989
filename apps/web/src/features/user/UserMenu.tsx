import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChevronDown, LogOut, Settings } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { session } from '../../shared/lib/api';
import { notify } from '../../shared/lib/toast';
import { useSession } from '../../shared/lib/useSession';
import { disablePushForSignOut } from '../../shared/native';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { signedInName, useProfile } from './profile';

const itemClass =
  'flex h-10 cursor-pointer items-center gap-2 rounded-md px-3 text-sm text-slate-100 outline-none data-[highlighted]:bg-slate-700';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const profile = useProfile();
  const [confirming, setConfirming] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const name = signedInName({
    firstName: profile.data?.first_name,
    email: user?.email,
    isLoading: profile.isLoading,
    isError: profile.isError,
    labels: {
      loading: t('userMenu.loading'),
      error: t('userMenu.error'),
      anonymous: t('userMenu.anonymous'),
    },
  });

  async function signOut() {
    setSigningOut(true);
    try {
      try {
        await disablePushForSignOut();
      } catch (error) {
        // docs/product.md §4 "Push state": pushes must stop with the session, so sign-out waits until they can.
        console.warn('disabling push at sign-out failed', error);
        notify.error(t('toasts.updateNotificationSettings'));
        return;
      }
      await session.signOut();
      notify.success(t('toasts.signedOut'));
      await navigate('/auth', { replace: true });
    } catch {
      notify.error(t('toasts.signOutError'));
    } finally {
      setSigningOut(false);
      setConfirming(false);
    }
  }

  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          data-testid="user-menu"
          className="flex w-full items-center gap-3 rounded-xl bg-slate-800/60 px-3 py-2.5 text-left ring-1 ring-slate-700 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <span
            aria-hidden="true"
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-500 font-semibold text-slate-950 uppercase"
          >
            {name.slice(0, 1)}
          </span>
          <span className="min-w-0 flex-1">
            <span className="block text-xs text-slate-400">{t('userMenu.signedInAs')}</span>
            <span className="block truncate text-sm font-medium text-white">{name}</span>
          </span>
          <ChevronDown className="size-4 text-slate-400" aria-hidden="true" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            side="top"
            align="start"
            sideOffset={8}
            className="z-50 min-w-56 rounded-xl bg-slate-800 p-1 shadow-xl ring-1 ring-slate-700"
          >
            <DropdownMenu.Item className={itemClass} onSelect={() => void navigate('/settings')}>
              <Settings className="size-4" aria-hidden="true" />
              {t('nav.settings')}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => setConfirming(true)}>
              <LogOut className="size-4" aria-hidden="true" />
              {t('userMenu.signOut')}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('userMenu.signOutConfirmTitle')}
        description={t('userMenu.signOutConfirmText')}
        confirmLabel={t('userMenu.signOut')}
        busy={signingOut}
        onConfirm={() => void signOut()}
      />
    </>
  );
}
