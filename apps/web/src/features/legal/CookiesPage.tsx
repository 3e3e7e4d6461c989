import { LegalPage } from './LegalPage';

export default function CookiesPage() {
  return <LegalPage doc="cookies" />;
}
