import type { Camera } from '@homesitter/contract';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';

/**
 * What private mode did not keep of this camera today: the camera was answered and its files deleted, so
 * without this line the owner would never learn that it sent anything.
 */
export function PrivateDrops({
  camera,
  className,
}: {
  camera: Pick<Camera, 'private_events_today'>;
  className?: string;
}) {
  const { t } = useTranslation('cameras');
  if (camera.private_events_today === 0) return null;
  return (
    <p data-testid="private-drops" className={cn('text-xs text-amber-200', className)}>
      {t('privateDrops', { count: camera.private_events_today })}
    </p>
  );
}
