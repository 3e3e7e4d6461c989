import type { SupportedLanguage } from '@homesitter/contract';
import type { OutgoingMail } from '../../adapters/mail/mailer.js';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

interface MailText {
  subject: string;
  intro: string;
  action: string;
  outro: string;
}

type MailKind = 'verify' | 'reset' | 'lockout';

const TEXTS: Record<MailKind, Record<SupportedLanguage, MailText>> = {
  verify: {
    en: {
      subject: 'Confirm your email for Homesitter',
      intro: 'Welcome to Homesitter! Please confirm your email address so your home sitter can reach you.',
      action: 'Confirm email address',
      outro:
        'The link works once and expires in 24 hours. If you did not create an account, ignore this mail.',
    },
    de: {
      subject: 'Bestätige deine E-Mail-Adresse für Homesitter',
      intro:
        'Willkommen bei Homesitter! Bitte bestätige deine E-Mail-Adresse, damit dein Homesitter dich erreichen kann.',
      action: 'E-Mail-Adresse bestätigen',
      outro:
        'Der Link funktioniert einmal und läuft in 24 Stunden ab. Wenn du kein Konto angelegt hast, ignoriere diese E-Mail.',
    },
  },
  reset: {
    en: {
      subject: 'Reset your Homesitter password',
      intro: 'Someone asked to reset the password of your Homesitter account.',
      action: 'Choose a new password',
      outro:
        'The link works once and expires in 1 hour. If it was not you, ignore this mail; nothing changes.',
    },
    de: {
      subject: 'Setze dein Homesitter-Passwort zurück',
      intro: 'Jemand möchte das Passwort deines Homesitter-Kontos zurücksetzen.',
      action: 'Neues Passwort wählen',
      outro:
        'Der Link funktioniert einmal und läuft in 1 Stunde ab. Warst du das nicht, ignoriere diese E-Mail; es ändert sich nichts.',
    },
  },
  lockout: {
    en: {
      subject: 'Failed sign-ins to your Homesitter account',
      intro:
        'Someone entered a wrong password for your Homesitter account {attempts} times in the last 15 minutes, from {addresses}. Further guesses from there are paused or slowed down; you can still sign in as usual.',
      action: 'If it was not you, choose a new password',
      outro: 'If it was you, wait a little and try again, or sign in from another network.',
    },
    de: {
      subject: 'Fehlgeschlagene Anmeldungen bei deinem Homesitter-Konto',
      intro:
        'Jemand hat in den letzten 15 Minuten {attempts}-mal ein falsches Passwort für dein Homesitter-Konto eingegeben, von {addresses}. Weitere Versuche von dort werden gesperrt oder verlangsamt; du selbst kannst dich weiter anmelden.',
      action: 'Warst du das nicht, wähle ein neues Passwort',
      outro:
        'Warst du es, warte kurz und versuche es noch einmal, oder melde dich aus einem anderen Netz an.',
    },
  },
};

function render(
  kind: MailKind,
  language: SupportedLanguage,
  to: string,
  link: string,
  vars: Record<string, string> = {},
): OutgoingMail {
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
  const base = TEXTS[kind][language];
  const t = { subject: base.subject, intro: fill(base.intro), action: base.action, outro: base.outro };
  const text = `${t.intro}\n\n${t.action}: ${link}\n\n${t.outro}\n\nHomesitter`;
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:auto;padding:24px">
<p>${escapeHtml(t.intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#2563eb;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">${escapeHtml(t.action)}</a></p>
<p style="font-size:13px;color:#475569">${escapeHtml(t.outro)}</p>
<p style="font-size:12px;color:#64748b;word-break:break-all">${escapeHtml(link)}</p>
</body></html>`;
  return { to, subject: t.subject, text, html, links: [link] };
}

export const verificationMail = (language: SupportedLanguage, to: string, link: string) =>
  render('verify', language, to, link);
export const passwordResetMail = (language: SupportedLanguage, to: string, link: string) =>
  render('reset', language, to, link);

/** Addresses named in the mail at most; the rest are counted. */
const MAIL_ADDRESSES_SHOWN = 5;

/** "the address 203.0.113.9", "the addresses 203.0.113.9, 198.51.100.7 and 4 more" (and in German). */
function addressList(language: SupportedLanguage, addresses: readonly string[]): string {
  const shown = addresses.slice(0, MAIL_ADDRESSES_SHOWN).join(', ');
  const more = addresses.length - MAIL_ADDRESSES_SHOWN;
  if (language === 'de') {
    const noun = addresses.length === 1 ? 'der Adresse' : 'den Adressen';
    return `${noun} ${shown}${more > 0 ? ` und ${more} weiteren` : ''}`;
  }
  const noun = addresses.length === 1 ? 'the address' : 'the addresses';
  return `${noun} ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}

/** To the owner, when wrong passwords for their account pause or slow down sign-ins (once a window). */
export const lockoutMail = (
  language: SupportedLanguage,
  to: string,
  link: string,
  failed: { failures: number; addresses: readonly string[] },
) =>
  render('lockout', language, to, link, {
    attempts: String(failed.failures),
    addresses: addressList(language, failed.addresses),
  });
