import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../shared/lib/toast';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { useDeleteCameraHistory } from './activities';

/** In a camera's settings: delete every past event of the camera, after a confirmation. */
export function DeleteHistory({ cameraName }: { cameraName: string }) {
  const { t } = useTranslation('cameras');
  const remove = useDeleteCameraHistory(cameraName);
  const [asking, setAsking] = useState(false);
  return (
    <Card>
      <h2 className="mb-1 text-lg font-semibold text-white">{t('history.title')}</h2>
      <p className="mb-4 text-sm text-slate-300">{t('history.text')}</p>
      <Button variant="danger" onClick={() => setAsking(true)}>
        <Trash2 className="size-4" aria-hidden="true" />
        {t('history.delete')}
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t('history.confirmTitle', { name: cameraName })}
        description={t('history.confirmText')}
        confirmLabel={t('history.confirm')}
        tone="danger"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: ({ deleted }) => {
              setAsking(false);
              notify.success(t('history.deleted', { count: deleted, name: cameraName }));
            },
            onError: () => notify.error(t('history.failed')),
          })
        }
      />
    </Card>
  );
}
