import { SIDE_PANEL_WIDTH_PX } from '@homesitter/contract/runtime';
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '../../shared/ui/Logo';
import { AppFooter } from './AppFooter';
import { NavList } from './NavList';

/** Small screens: the slide-in menu opened from the bottom bar (full width on phones, 400px on tablets). */
export function SidePanel({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const close = () => onOpenChange(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/60 lg:hidden" />
        <Dialog.Content
          data-testid="side-panel"
          style={{ ['--panel-width' as string]: `${SIDE_PANEL_WIDTH_PX}px` }}
          className="fixed inset-y-0 right-0 z-50 flex w-full animate-panel-in flex-col gap-6 overflow-y-auto bg-slate-900 px-5 pt-[calc(var(--safe-top)+1.25rem)] pb-[calc(var(--safe-bottom)+1.25rem)] shadow-2xl ring-1 ring-slate-800 focus:outline-none md:w-[var(--panel-width)] lg:hidden"
        >
          <div className="flex items-center justify-between">
            <Link to="/" onClick={close} aria-label={t('nav.home')} className="rounded-lg">
              <Logo />
            </Link>
            <Dialog.Close
              aria-label={t('common.close')}
              className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              <X className="size-6" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">{t('nav.menu')}</Dialog.Title>
          <Dialog.Description className="sr-only">{t('nav.menuDescription')}</Dialog.Description>
          <nav aria-label={t('nav.main')}>
            <NavList onNavigate={close} />
          </nav>
          <div className="mt-auto">
            <AppFooter />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
