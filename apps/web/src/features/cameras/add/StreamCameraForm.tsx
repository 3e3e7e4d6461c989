import type { Camera, CameraConnectionInput } from '@homesitter/contract';
import { CAMERA_CONFIGURATION_S, CAMERA_NAME_MAX } from '@homesitter/contract/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/errors';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { TextField } from '../../../shared/ui/TextField';
import { useAddCamera, useCameras, useDefaultSiteUuid, useSites } from '../api';
import { SiteSelect } from '../SiteSelect';
import { useCameraNameField } from '../useCameraNameField';
import { StreamConnectionFields } from './StreamConnectionFields';
import type { StreamFormValues } from './streamConnection';
import { useStreamForm } from './useStreamForm';

export interface StreamDraft {
  name: string;
  /** undefined until the user picks: the default property (`useDefaultSiteUuid`). */
  siteUuid: string | null | undefined;
  values: StreamFormValues;
}

/**
 * Adds an RTSP or ONVIF camera: its name (checked as for every camera), property and how to reach it.
 * The server answers at once with `configuring`; `onAdded` then follows the configuration.
 */
export function StreamCameraForm({
  draft,
  onDraftChange,
  onAdded,
}: {
  draft: StreamDraft;
  onDraftChange: (draft: StreamDraft) => void;
  onAdded: (camera: Camera, connection: CameraConnectionInput) => void;
}) {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const cameras = useCameras();
  const sites = useSites();
  const add = useAddCamera();
  const defaultSite = useDefaultSiteUuid();
  const siteUuid = draft.siteUuid === undefined ? defaultSite : draft.siteUuid;
  const name = useCameraNameField(
    (cameras.data ?? []).map((c) => c.name),
    draft.name,
  );
  const form = useStreamForm(draft.values, (values) => onDraftChange({ ...draft, name: name.value, values }));
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const nameOk = name.validate();
    const connection = form.validate();
    if (!nameOk || !connection) return;
    setFailure(null);
    add.mutate(
      { name: name.value.trim(), site_uuid: siteUuid, connection },
      {
        onSuccess: (camera) => onAdded(camera, connection),
        onError: (error) => {
          const shown = name.fromServer(error) || form.fromServer(error);
          if (!shown) setFailure(errorText(tr, error, t('add.failed')));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label={t('add.stream.formLabel')}>
      <TextField
        label={t('add.nameLabel')}
        hint={t('add.stream.nameHint')}
        value={name.value}
        maxLength={CAMERA_NAME_MAX + 1}
        autoComplete="off"
        onChange={(e) => {
          name.onChange(e.target.value);
          onDraftChange({ ...draft, name: e.target.value });
        }}
        error={name.error}
      />
      <SiteSelect
        sites={sites.data ?? []}
        value={siteUuid}
        onChange={(siteUuid) => onDraftChange({ ...draft, name: name.value, siteUuid })}
      />
      <StreamConnectionFields values={draft.values} onChange={form.onChange} errors={form.errors} />
      {failure ? <Alert>{failure}</Alert> : null}
      <p className="text-sm text-slate-400">{t('add.stream.next', { seconds: CAMERA_CONFIGURATION_S })}</p>
      <div className="flex justify-end">
        <Button type="submit" busy={add.isPending}>
          {t('add.stream.submit')}
        </Button>
      </div>
    </form>
  );
}
