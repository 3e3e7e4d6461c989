import { CAMERA_NAME_MAX } from '@homesitter/contract/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../../shared/lib/errors';
import { notify } from '../../../shared/lib/toast';
import { Button } from '../../../shared/ui/Button';
import { TextField } from '../../../shared/ui/TextField';
import { useAddCamera, useCameras, useDefaultSiteUuid, useSites } from '../api';
import { SiteSelect } from '../SiteSelect';
import { useCameraNameField } from '../useCameraNameField';

/** A camera that uploads its events (FTP, email): a name (checked inline, §5) and an optional property. */
export function UploadCameraForm() {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const navigate = useNavigate();
  const cameras = useCameras();
  const sites = useSites();
  const add = useAddCamera();
  const name = useCameraNameField((cameras.data ?? []).map((c) => c.name));
  // Unpicked (undefined) follows the default, which is known only once the properties have loaded.
  const [picked, setSiteUuid] = useState<string | null | undefined>(undefined);
  const defaultSite = useDefaultSiteUuid();
  const siteUuid = picked === undefined ? defaultSite : picked;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.validate()) return;
    add.mutate(
      { name: name.value.trim(), site_uuid: siteUuid },
      {
        onSuccess: (camera) => {
          notify.success(t('add.added', { name: camera.name }));
          void navigate(`/cameras/${encodeURIComponent(camera.name)}`);
        },
        onError: (error) => {
          if (!name.fromServer(error)) notify.error(errorText(tr, error, t('add.failed')));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label={t('add.upload.formLabel')}>
      <TextField
        label={t('add.nameLabel')}
        hint={t('add.nameHint')}
        value={name.value}
        maxLength={CAMERA_NAME_MAX + 1}
        autoComplete="off"
        autoFocus
        onChange={(e) => name.onChange(e.target.value)}
        error={name.error}
      />
      <SiteSelect sites={sites.data ?? []} value={siteUuid} onChange={setSiteUuid} />
      <p className="text-sm text-slate-400">{t('add.next')}</p>
      <div className="flex justify-end">
        <Button type="submit" busy={add.isPending}>
          {t('add.submit')}
        </Button>
      </div>
    </form>
  );
}
