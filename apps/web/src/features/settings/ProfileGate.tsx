import type { UserProfile } from '@homesitter/contract';
import { MESSAGES } from '@homesitter/contract/runtime';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { useProfile } from '../user/profile';

/** Renders `children` with the loaded profile; a spinner while loading, the §8 text and a retry on failure. */
export function ProfileGate({ children }: { children: (profile: UserProfile) => ReactNode }) {
  const { t } = useTranslation();
  const profile = useProfile();
  if (profile.data) return children(profile.data);
  if (profile.isError) {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert>{errorText(t, profile.error, MESSAGES.loadUserDataFailed)}</Alert>
        <Button variant="secondary" onClick={() => void profile.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  return <PageSpinner />;
}
