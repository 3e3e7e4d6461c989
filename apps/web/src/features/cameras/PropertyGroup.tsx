import { useDroppable } from '@dnd-kit/core';
import type { Camera, Site } from '@homesitter/contract';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Building2, Home, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';
import { CameraCard } from './CameraCard';
import { NO_PROPERTY } from './useCameraDnd';

const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-100 outline-none data-[highlighted]:bg-slate-700';

export interface PropertyGroupProps {
  site: Site | null;
  cameras: Camera[];
  onRename?: (site: Site) => void;
  onDelete?: (site: Site) => void;
}

/** A property (or "No property") as a drop target holding its cameras. */
export function PropertyGroup({ site, cameras, onRename, onDelete }: PropertyGroupProps) {
  const { t } = useTranslation('cameras');
  const id = site?.site_uuid ?? NO_PROPERTY;
  const { setNodeRef, isOver } = useDroppable({ id });
  const name = site?.name ?? t('noProperty');
  const headingId = `group-${id}`;
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-testid="property-group"
      data-property={name}
      className={cn(
        'rounded-2xl p-3 ring-1 transition-colors md:p-4',
        isOver ? 'bg-brand-500/10 ring-brand-400' : 'bg-slate-900/40 ring-slate-800',
      )}
    >
      <header className="mb-3 flex items-center gap-2">
        {site ? (
          <Home className="size-4 text-brand-400" aria-hidden="true" />
        ) : (
          <Building2 className="size-4 text-slate-400" aria-hidden="true" />
        )}
        <h2 id={headingId} className="min-w-0 flex-1 truncate font-semibold text-white">
          {name}
        </h2>
        <span className="text-xs text-slate-400">{t('property.cameraCount', { count: cameras.length })}</span>
        {site && onRename && onDelete ? (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger
              aria-label={t('property.actions', { name: site.name })}
              className="rounded-lg p-1.5 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              <MoreHorizontal className="size-5" aria-hidden="true" />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="end"
                sideOffset={6}
                className="z-50 min-w-44 rounded-xl bg-slate-800 p-1 shadow-xl ring-1 ring-slate-700"
              >
                <DropdownMenu.Item className={itemClass} onSelect={() => onRename(site)}>
                  <Pencil className="size-4" aria-hidden="true" />
                  {t('property.rename')}
                </DropdownMenu.Item>
                <DropdownMenu.Item className={cn(itemClass, 'text-red-300')} onSelect={() => onDelete(site)}>
                  <Trash2 className="size-4" aria-hidden="true" />
                  {t('property.delete')}
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        ) : null}
      </header>
      {cameras.length > 0 ? (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {cameras.map((camera) => (
            <CameraCard key={camera.camera_uuid} camera={camera} />
          ))}
        </ul>
      ) : (
        <p className="rounded-xl border border-dashed border-slate-700 px-4 py-6 text-center text-sm text-slate-400">
          {t('property.empty')}
        </p>
      )}
    </section>
  );
}
