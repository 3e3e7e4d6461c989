import type { CameraConnectionInput } from '@homesitter/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/errors';
import { notify } from '../../../shared/lib/toast';
import { Button } from '../../../shared/ui/Button';
import { useConfigureCamera } from '../api';
import { StreamConnectionFields } from './StreamConnectionFields';
import { checkStreamForm, sameConnection, type StreamFormValues } from './streamConnection';
import { useStreamForm } from './useStreamForm';

/**
 * "Edit" after a failed configuration: the details as entered, to check and correct, then "Try again":
 * changed details are stored and configured (`update-camera`), unchanged ones configured again.
 */
export function StreamCameraEdit({
  cameraName,
  initial,
  sent,
  onDone,
  onCancel,
}: {
  cameraName: string;
  initial: StreamFormValues;
  /** The connection the server has (as last sent), to tell a change from none. */
  sent: CameraConnectionInput | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const [values, setValues] = useState(initial);
  const form = useStreamForm(values, setValues);
  const configure = useConfigureCamera(cameraName);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.validate()) return;
    const { connection } = checkStreamForm(values);
    const changed = connection && !sameConnection(connection, sent) ? connection : undefined;
    configure.mutate(changed, {
      onSuccess: onDone,
      onError: (error) => notify.error(errorText(tr, error, t('configure.retryFailed'))),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label={t('add.stream.editLabel')}>
      <h2 className="text-lg font-semibold text-white">{t('add.stream.editTitle', { name: cameraName })}</h2>
      <StreamConnectionFields values={values} onChange={form.onChange} errors={form.errors} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" busy={configure.isPending}>
          {t('configure.tryAgain')}
        </Button>
      </div>
    </form>
  );
}
