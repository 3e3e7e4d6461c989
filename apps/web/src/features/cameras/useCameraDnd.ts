import {
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import type { Camera, Site } from '@homesitter/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAssignCameraSite } from './api';

/** The droppable id of the "No property" group. */
export const NO_PROPERTY = 'no-property';

const NEXT = [KeyboardCode.Down, KeyboardCode.Right];
const PREVIOUS = [KeyboardCode.Up, KeyboardCode.Left];

/**
 * Arrow keys jump between property groups (in reading order, wrapping around) instead of nudging by
 * pixels, so a keyboard user moves a camera with one key press per property.
 */
export const groupKeyboardCoordinates: KeyboardCoordinateGetter = (
  event,
  { context, currentCoordinates },
) => {
  const step = NEXT.includes(event.code as KeyboardCode)
    ? 1
    : PREVIOUS.includes(event.code as KeyboardCode)
      ? -1
      : 0;
  const { collisionRect, droppableRects, droppableContainers, over } = context;
  if (!step || !collisionRect) return undefined;
  event.preventDefault();
  const groups = droppableContainers
    .getEnabled()
    .map((c) => ({ id: c.id, rect: droppableRects.get(c.id) }))
    .filter((g): g is { id: typeof g.id; rect: NonNullable<typeof g.rect> } => g.rect !== undefined)
    .sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left);
  // Right after the drag starts `over` may not be measured yet: then the group under the card is the start.
  const centerY = collisionRect.top + collisionRect.height / 2;
  const index = over
    ? groups.findIndex((g) => g.id === over.id)
    : groups.findIndex((g) => centerY >= g.rect.top && centerY <= g.rect.top + g.rect.height);
  // Wraps around at either end, so every property is reachable with either arrow.
  const n = groups.length;
  const target = groups[index === -1 ? (step > 0 ? 0 : n - 1) : (index + step + n) % n];
  if (!target) return currentCoordinates;
  return {
    x:
      currentCoordinates.x +
      target.rect.left +
      target.rect.width / 2 -
      (collisionRect.left + collisionRect.width / 2),
    y:
      currentCoordinates.y +
      target.rect.top +
      Math.min(target.rect.height / 2, 60) -
      (collisionRect.top + collisionRect.height / 2),
  };
};

/** Sensors (pointer, touch, keyboard), screen-reader announcements and the drop handler. */
export function useCameraDnd(cameras: Camera[], sites: Site[]) {
  const { t } = useTranslation('cameras');
  const assign = useAssignCameraSite();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: groupKeyboardCoordinates }),
  );

  const groupName = useMemo(() => {
    const names = new Map<string, string>(sites.map((s) => [s.site_uuid, s.name]));
    return (id: string | number | undefined) =>
      id === NO_PROPERTY ? t('noProperty') : (names.get(String(id)) ?? '');
  }, [sites, t]);

  const announcements: Announcements = {
    onDragStart: ({ active }) => t('dnd.picked', { name: String(active.id) }),
    onDragOver: ({ active, over }) =>
      over ? t('dnd.over', { name: String(active.id), target: groupName(over.id) }) : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? t('dnd.dropped', { name: String(active.id), target: groupName(over.id) })
        : t('dnd.cancelled', { name: String(active.id) }),
    onDragCancel: ({ active }) => t('dnd.cancelled', { name: String(active.id) }),
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over) return;
    const camera = cameras.find((c) => c.name === active.id);
    const siteUuid = over.id === NO_PROPERTY ? null : String(over.id);
    if (!camera || camera.site_uuid === siteUuid) return;
    assign.mutate({ camera_name: camera.name, site_uuid: siteUuid });
  }

  return {
    sensors,
    onDragEnd,
    accessibility: { announcements, screenReaderInstructions: { draggable: t('dnd.instructions') } },
  };
}
