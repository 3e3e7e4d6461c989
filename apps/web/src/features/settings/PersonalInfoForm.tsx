import { MESSAGES, normalizePhone } from '@homesitter/contract/runtime';
import type { UserProfile } from '@homesitter/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { TextField } from '../../shared/ui/TextField';
import { composePhone, phoneError, splitPhone } from '../auth/phone';
import { PhoneInput } from '../auth/PhoneInput';
import { profileKey } from '../user/profile';

/** Calling codes good enough to split a stored number for editing; the picker offers every country. */
const COMMON_CODES: [string, string][] = [
  ['US', '1'],
  ['GB', '44'],
  ['DE', '49'],
  ['AT', '43'],
  ['CH', '41'],
  ['FR', '33'],
  ['ES', '34'],
  ['IT', '39'],
  ['NL', '31'],
  ['AU', '61'],
  ['IN', '91'],
  ['BR', '55'],
  ['MX', '52'],
  ['JP', '81'],
  ['IE', '353'],
  ['PL', '48'],
];

export function PersonalInfoForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(profile.first_name ?? '');
  const [lastName, setLastName] = useState(profile.last_name ?? '');
  const [phone, setPhone] = useState(() => splitPhone(profile.phone_number, COMMON_CODES));
  const [busy, setBusy] = useState(false);
  const fullPhone = composePhone(phone);
  const phoneErrorKey = phoneError(fullPhone);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (phoneErrorKey) return;
    setBusy(true);
    try {
      const answer = await api.call('updatePersonalInfo', {
        body: {
          first_name: firstName.trim() || null,
          last_name: lastName.trim() || null,
          phone_number: fullPhone ? normalizePhone(fullPhone) : null,
        },
      });
      queryClient.setQueryData(profileKey, answer.data);
      notify.success(t('settings.account.saved'));
    } catch (cause) {
      notify.error(errorText(t, cause, MESSAGES.updatePersonalInfoFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="personal-heading">
      <h2 id="personal-heading" className="mb-4 text-base font-semibold text-white">
        {t('settings.account.personalInfo')}
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('settings.account.firstName')}
            autoComplete="given-name"
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
          />
          <TextField
            label={t('settings.account.lastName')}
            autoComplete="family-name"
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
          />
        </div>
        <TextField label={t('auth.email')} value={profile.firebase_email_address} readOnly disabled />
        <PhoneInput
          label={t('auth.phoneOptional')}
          hint={t('settings.account.phoneHint')}
          value={phone}
          onChange={setPhone}
          error={phoneErrorKey ? t(phoneErrorKey) : null}
        />
        <Button type="submit" busy={busy} disabled={Boolean(phoneErrorKey)} className="self-start">
          {t('common.save')}
        </Button>
      </form>
    </Card>
  );
}
