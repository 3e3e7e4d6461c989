import type { CameraDetail, CameraSettingsPatch } from '@homesitter/contract';
import { CAMERA_NOTES_MAX, MESSAGES } from '@homesitter/contract/runtime';
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { SettingSwitch } from '../../shared/ui/SettingSwitch';
import { inputClass, TextField } from '../../shared/ui/TextField';
import { useProfile } from '../user/profile';
import { useAssignCameraSite, useSites, useUpdateCameraSettings } from './api';
import { MotionSensitivity } from './MotionSensitivity';
import { SiteSelect } from './SiteSelect';

/**
 * docs/product.md §3/§4 camera settings: notes for the AI, private, mute, facial recognition (with consent), login,
 * property, and for stream cameras the motion sensitivity.
 */
export function CameraSettingsForm({ camera }: { camera: CameraDetail }) {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const update = useUpdateCameraSettings(camera.name);
  const assign = useAssignCameraSite();
  const sites = useSites();
  const profile = useProfile();
  const globalRecognition = profile.data?.is_facial_recognition_enabled ?? false;
  const s = camera.settings;
  const [notes, setNotes] = useState(s.notes ?? '');
  const [username, setUsername] = useState(s.username ?? '');
  const [password, setPassword] = useState(s.password ?? '');
  const [asking, setAsking] = useState(false);

  const save = (patch: CameraSettingsPatch, successKey = 'cameraSettings.saved') =>
    update.mutate(patch, {
      onSuccess: () => notify.success(t(successKey)),
      onError: (error) => notify.error(errorText(tr, error, MESSAGES.updateCameraSettingsFailed)),
    });

  const { mutate } = update;
  const saveSensitivity = useCallback(
    (motion_sensitivity: number) =>
      mutate(
        { motion_sensitivity },
        {
          onSuccess: () => notify.success(t('cameraSettings.saved')),
          onError: (error) => notify.error(errorText(tr, error, MESSAGES.updateCameraSettingsFailed)),
        },
      ),
    [mutate, t, tr],
  );

  const saveNotes = (e: FormEvent) => {
    e.preventDefault();
    save({ notes: notes.trim() ? notes : null });
  };
  const saveLogin = (e: FormEvent) => {
    e.preventDefault();
    save({ username: username || null, password: password || null });
  };

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <h2 className="mb-2 text-lg font-semibold text-white">{t('cameraSettings.title')}</h2>
        <SettingSwitch
          label={t('cameraSettings.private')}
          description={t('cameraSettings.privateDescription')}
          checked={s.is_private_mode_enabled}
          disabled={update.isPending}
          onCheckedChange={(on) => save({ is_private_mode_enabled: on })}
        />
        <SettingSwitch
          label={t('cameraSettings.muted')}
          description={t('cameraSettings.mutedDescription')}
          checked={s.is_muted}
          disabled={update.isPending}
          onCheckedChange={(on) => save({ is_muted: on })}
        />
        <SettingSwitch
          label={t('cameraSettings.onlyUnusual')}
          description={t('cameraSettings.onlyUnusualDescription')}
          checked={s.only_unusual_alerts}
          disabled={update.isPending || s.is_muted}
          onCheckedChange={(on) => save({ only_unusual_alerts: on })}
        />
        <SettingSwitch
          label={t('cameraSettings.facialRecognition')}
          description={
            globalRecognition
              ? t('cameraSettings.facialRecognitionDescription')
              : t('cameraSettings.facialRecognitionOff')
          }
          checked={s.is_facial_recognition_enabled}
          disabled={update.isPending || (!globalRecognition && !s.is_facial_recognition_enabled)}
          onCheckedChange={(on) => (on ? setAsking(true) : save({ is_facial_recognition_enabled: false }))}
        />
        {/* Upload and Nest cameras decide for themselves what motion is: nothing to tune here. */}
        {camera.connection_type !== 'upload' && camera.connection_type !== 'nest' ? (
          <MotionSensitivity
            value={s.motion_sensitivity}
            disabled={update.isPending}
            onSave={saveSensitivity}
          />
        ) : null}
        <div className="mt-3">
          <SiteSelect
            sites={sites.data ?? []}
            value={camera.site_uuid}
            disabled={assign.isPending}
            onChange={(siteUuid) => assign.mutate({ camera_name: camera.name, site_uuid: siteUuid })}
          />
        </div>
      </Card>

      <Card>
        <form onSubmit={saveNotes} className="flex flex-col gap-3">
          <label htmlFor="camera-notes" className="text-lg font-semibold text-white">
            {t('cameraSettings.notes')}
          </label>
          <p id="camera-notes-hint" className="-mt-2 text-sm text-slate-400">
            {t('cameraSettings.notesHint')}
          </p>
          <textarea
            id="camera-notes"
            aria-describedby="camera-notes-hint camera-notes-count"
            value={notes}
            maxLength={CAMERA_NOTES_MAX}
            rows={4}
            onChange={(e) => setNotes(e.target.value)}
            className={`${inputClass} h-auto min-h-28 py-2`}
          />
          <div className="flex items-center justify-between">
            <span id="camera-notes-count" className="text-xs text-slate-400">
              {t('cameraSettings.notesCount', { count: notes.length, max: CAMERA_NOTES_MAX })}
            </span>
            <Button type="submit" variant="secondary" busy={update.isPending}>
              {t('cameraSettings.saveNotes')}
            </Button>
          </div>
        </form>
      </Card>

      <Card>
        <form onSubmit={saveLogin} className="flex flex-col gap-4">
          <div>
            <h2 className="text-lg font-semibold text-white">{t('cameraSettings.login')}</h2>
            <p className="mt-1 text-sm text-slate-400">{t('cameraSettings.loginHint')}</p>
          </div>
          <TextField
            label={t('cameraSettings.username')}
            value={username}
            autoComplete="off"
            onChange={(e) => setUsername(e.target.value)}
          />
          <TextField
            label={t('cameraSettings.password')}
            type="password"
            value={password}
            autoComplete="new-password"
            onChange={(e) => setPassword(e.target.value)}
          />
          <div className="flex justify-end">
            <Button type="submit" variant="secondary" busy={update.isPending}>
              {t('cameraSettings.saveLogin')}
            </Button>
          </div>
        </form>
      </Card>

      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t('cameraSettings.consentTitle')}
        description={t('cameraSettings.consentText')}
        confirmLabel={t('cameraSettings.consentConfirm')}
        onConfirm={() => {
          setAsking(false);
          save({ is_facial_recognition_enabled: true });
        }}
      />
    </div>
  );
}
