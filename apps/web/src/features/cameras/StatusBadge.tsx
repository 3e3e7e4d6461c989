import type { CameraConfigurationStatus } from '@homesitter/contract';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';

const tones: Record<CameraConfigurationStatus, string> = {
  pending: 'bg-slate-800 text-slate-300 ring-slate-700',
  configuring: 'bg-sky-950 text-sky-200 ring-sky-800',
  configured: 'bg-emerald-950 text-emerald-200 ring-emerald-800',
  failed: 'bg-red-950 text-red-200 ring-red-800',
};

export function StatusBadge({ status }: { status: CameraConfigurationStatus }) {
  const { t } = useTranslation('cameras');
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium ring-1', tones[status])}>
      {t(`status.${status}`)}
    </span>
  );
}
