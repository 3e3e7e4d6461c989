import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../shared/ui/cn';
import { TextField } from '../../../shared/ui/TextField';
import type { StreamField, StreamFormValues, StreamType } from './streamConnection';

const TYPES: StreamType[] = ['onvif', 'rtsp'];

/** How to reach a stream camera: ONVIF (host, port, login) or an RTSP address (with an optional login). */
export function StreamConnectionFields({
  values,
  onChange,
  errors,
  disabled,
}: {
  values: StreamFormValues;
  onChange: (values: StreamFormValues) => void;
  errors: Partial<Record<StreamField, string | null>>;
  disabled?: boolean;
}) {
  const { t } = useTranslation('cameras');
  const name = useId();
  const set = (field: keyof StreamFormValues) => (e: { target: { value: string } }) =>
    onChange({ ...values, [field]: e.target.value });

  return (
    <div className="flex flex-col gap-5">
      <fieldset className="flex flex-col gap-2" disabled={disabled}>
        <legend className="mb-1.5 text-sm font-medium text-slate-200">{t('add.stream.typeLabel')}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {TYPES.map((type) => (
            <label
              key={type}
              className={cn(
                'flex cursor-pointer flex-col gap-1 rounded-xl p-3 ring-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-400',
                values.type === type
                  ? 'bg-slate-800 ring-brand-500'
                  : 'bg-slate-900 ring-slate-700 hover:bg-slate-800',
              )}
            >
              <span className="flex items-center gap-2 font-medium text-white">
                <input
                  type="radio"
                  name={name}
                  value={type}
                  checked={values.type === type}
                  onChange={() => onChange({ ...values, type })}
                  className="accent-brand-500"
                />
                {t(`add.stream.types.${type}`)}
              </span>
              <span className="text-xs text-slate-400">{t(`add.stream.typeHints.${type}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {values.type === 'onvif' ? (
        <div className="grid gap-5 sm:grid-cols-[1fr_8rem]">
          <TextField
            label={t('add.stream.host')}
            hint={t('add.stream.hostHint')}
            value={values.host}
            onChange={set('host')}
            error={errors.host}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            inputMode="url"
            disabled={disabled}
          />
          <TextField
            label={t('add.stream.port')}
            value={values.port}
            onChange={set('port')}
            error={errors.port}
            inputMode="numeric"
            autoComplete="off"
            disabled={disabled}
          />
        </div>
      ) : (
        <TextField
          label={t('add.stream.url')}
          hint={t('add.stream.urlHint')}
          placeholder={t('add.stream.urlPlaceholder')}
          value={values.url}
          onChange={set('url')}
          error={errors.url}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          inputMode="url"
          disabled={disabled}
        />
      )}

      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={values.type === 'rtsp' ? t('add.stream.usernameOptional') : t('add.stream.username')}
          value={values.username}
          onChange={set('username')}
          error={errors.username}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          disabled={disabled}
        />
        <TextField
          label={values.type === 'rtsp' ? t('add.stream.passwordOptional') : t('add.stream.password')}
          type="password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
          autoComplete="new-password"
          disabled={disabled}
        />
      </div>
    </div>
  );
}
