import { LANGUAGE_DROPDOWN_MAX_HEIGHT_VH, LANGUAGES } from '@homesitter/contract/runtime';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, ChevronDown, Globe } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../shared/ui/Button';
import { cn } from '../../shared/ui/cn';
import { Spinner } from '../../shared/ui/Spinner';
import { dropdownSide, useLanguageChange, type SaveLanguage } from './useLanguageChange';

function languageName(code: string): string {
  return LANGUAGES.find((l) => l.code === code)?.name ?? code;
}

export function LanguageSelector({ saveRemote }: { saveRemote?: SaveLanguage }) {
  const { t } = useTranslation();
  const { current, pending, saving, choose, cancel, confirm } = useLanguageChange(saveRemote);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [side, setSide] = useState<'top' | 'bottom'>('bottom');

  function onOpenChange(open: boolean) {
    const rect = triggerRef.current?.getBoundingClientRect();
    if (open && rect) setSide(dropdownSide(rect.bottom, window.innerHeight, LANGUAGE_DROPDOWN_MAX_HEIGHT_VH));
  }

  return (
    <div className="flex flex-col gap-2">
      <DropdownMenu.Root onOpenChange={onOpenChange}>
        <DropdownMenu.Trigger
          ref={triggerRef}
          disabled={saving}
          data-testid="language-selector"
          aria-label={t('language.label', { language: languageName(current) })}
          className="flex h-11 w-full items-center gap-2 rounded-lg bg-slate-800/60 px-3 text-sm text-slate-100 ring-1 ring-slate-700 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-brand-400 disabled:opacity-60"
        >
          <Globe className="size-4 text-slate-400" aria-hidden="true" />
          <span className="flex-1 text-left">{languageName(current)}</span>
          {saving ? (
            <Spinner size="sm" />
          ) : (
            <ChevronDown className="size-4 text-slate-400" aria-hidden="true" />
          )}
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            side={side}
            align="start"
            sideOffset={6}
            avoidCollisions={false}
            style={{ maxHeight: `${LANGUAGE_DROPDOWN_MAX_HEIGHT_VH}vh` }}
            className="z-50 w-[var(--radix-dropdown-menu-trigger-width)] min-w-56 overflow-y-auto rounded-xl bg-slate-800 p-1 shadow-xl ring-1 ring-slate-700"
          >
            {LANGUAGES.map((language) => (
              <DropdownMenu.Item
                key={language.code}
                lang={language.code}
                disabled={!language.supported}
                onSelect={() => choose(language.code)}
                className={cn(
                  'flex h-10 items-center gap-2 rounded-md px-3 text-sm outline-none',
                  language.supported
                    ? 'cursor-pointer text-slate-100 data-[highlighted]:bg-slate-700'
                    : 'cursor-not-allowed text-slate-400',
                )}
              >
                <span className="flex-1">{language.name}</span>
                {language.code === current ? (
                  <Check className="size-4 text-brand-400" aria-hidden="true" />
                ) : null}
                {language.supported ? null : <span className="text-xs">{t('language.comingSoon')}</span>}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {pending ? (
        <div
          role="group"
          aria-label={t('language.confirmTitle')}
          className="rounded-lg bg-slate-800 p-3 ring-1 ring-slate-700"
        >
          <p className="mb-3 text-sm text-slate-200">
            {t('language.confirmQuestion', { language: languageName(pending) })}
          </p>
          <div className="flex gap-2">
            <Button variant="secondary" className="h-9 flex-1" onClick={cancel} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button className="h-9 flex-1" busy={saving} onClick={() => void confirm()} autoFocus>
              {t('common.confirm')}
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
