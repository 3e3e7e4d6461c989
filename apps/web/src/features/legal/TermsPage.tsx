import { LegalPage } from './LegalPage';

export default function TermsPage() {
  return <LegalPage doc="terms" />;
}
