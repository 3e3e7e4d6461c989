import { MOTION_SENSITIVITY_MAX, MOTION_SENSITIVITY_MIN } from '@homesitter/contract/runtime';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The slider settles this long before its value is saved, so dragging saves once. */
const SAVE_AFTER_MS = 600;

/**
 * A stream camera's motion sensitivity, 1 (large, clear movement only) to 10 (the smallest change): a
 * slider that saves shortly after it stops moving.
 */
export function MotionSensitivity({
  value,
  disabled,
  onSave,
}: {
  value: number;
  disabled?: boolean;
  onSave: (value: number) => void;
}) {
  const { t } = useTranslation('cameras');
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onSave(draft), SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [draft, value, onSave]);

  return (
    <div className="flex flex-col gap-2 py-3">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="font-medium text-white">
          {t('cameraSettings.motionSensitivity')}
        </label>
        <span className="text-sm text-slate-300" aria-hidden="true">
          {t('cameraSettings.motionValue', { value: draft, max: MOTION_SENSITIVITY_MAX })}
        </span>
      </div>
      <p id={`${id}-hint`} className="text-sm text-slate-400">
        {t('cameraSettings.motionSensitivityHint')}
      </p>
      <input
        id={id}
        type="range"
        min={MOTION_SENSITIVITY_MIN}
        max={MOTION_SENSITIVITY_MAX}
        step={1}
        value={draft}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        aria-valuetext={t('cameraSettings.motionValue', { value: draft, max: MOTION_SENSITIVITY_MAX })}
        onChange={(e) => setDraft(Number(e.target.value))}
        className="w-full accent-brand-500"
      />
      <div className="flex justify-between text-xs text-slate-400" aria-hidden="true">
        <span>{t('cameraSettings.lessSensitive')}</span>
        <span>{t('cameraSettings.moreSensitive')}</span>
      </div>
    </div>
  );
}
