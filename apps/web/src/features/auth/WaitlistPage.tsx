import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthShell } from './AuthShell';
import { WaitlistView } from './WaitlistView';

export default function WaitlistPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthShell title={t('waitlist.pageTitle')}>
      <WaitlistView onBackToSignIn={() => void navigate('/auth', { state: { defaultToSignIn: true } })} />
    </AuthShell>
  );
}
