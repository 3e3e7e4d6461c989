import { VERSION_LABEL } from '@homesitter/contract/runtime';
import { LanguageSelector } from '../../features/language/LanguageSelector';
import { UserMenu } from '../../features/user/UserMenu';
import { StoreLinks } from '../../shared/ui/StoreLinks';

/** The lower part of the sidebar and the side panel: account, language, store links, version. */
export function AppFooter() {
  return (
    <div className="flex flex-col gap-4">
      <UserMenu />
      <LanguageSelector />
      <StoreLinks />
      <p className="text-xs text-slate-400">{VERSION_LABEL}</p>
    </div>
  );
}
