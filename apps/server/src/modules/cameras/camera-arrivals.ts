import type { EventBus } from '../../platform/events.js';
import type { CameraRow, CamerasRepository } from './cameras.repository.js';

/** One camera files arrived from: its name, the row found before (if any) and its newest file's time. */
export interface CameraArrival {
  userId: string;
  name: string;
  existing: CameraRow | undefined;
  at: Date;
}

/**
 * The cameras side of arriving events (docs/product.md §4): an unknown name registers the camera, a removed camera
 * reappears, and the last activity time moves on. Clients hear `cameras.changed` when a camera appears or
 * comes back, and once per burst of files (not for every snapshot of one event); the later files of a burst
 * announce `cameras.stamped`, for the server's own cache of the list. One path for an upload processed alone
 * and for a round, through the cameras repository (the table's one writer).
 */
export function createUploadCameras(deps: {
  repo: Pick<CamerasRepository, 'findByNames' | 'registerArrived' | 'stampArrived'>;
  events: EventBus;
  quietMs: number;
}) {
  const { repo, events } = deps;

  /** Whether clients should hear of an event at `at`: a camera back from removal, or a new burst. */
  const announces = (before: CameraRow, at: Date) =>
    before.removedAt !== null ||
    at.getTime() - (before.lastActivityAt?.getTime() ?? -Infinity) > deps.quietMs;
  const needsStamp = (before: CameraRow, at: Date) =>
    before.removedAt !== null || (before.lastActivityAt?.getTime() ?? -Infinity) < at.getTime();

  return {
    /** The users' cameras of these names, any case, removed or not: one statement, in the order asked. */
    named: (names: { userId: string; name: string }[]) => repo.findByNames(names),

    /**
     * Registers, restores and stamps the cameras events came from: unknown ones registered in one statement,
     * known ones stamped in another, and each user told once. Answers the cameras in the order asked.
     */
    async arrived(arrivals: CameraArrival[]): Promise<CameraRow[]> {
      const rows: (CameraRow | undefined)[] = arrivals.map((a) => a.existing);
      const changedUsers = new Set<string>();
      const unknown = arrivals.flatMap((a, i) => (a.existing ? [] : [i]));
      const registered = await repo.registerArrived(unknown.map((i) => arrivals[i]!));
      for (const i of unknown) {
        const a = arrivals[i]!;
        rows[i] = registered.find((r) => r.userId === a.userId && r.name === a.name);
        if (rows[i]) changedUsers.add(a.userId);
      }
      // Registered by another file or instance (or under another case of the name) since it was looked up:
      // stamped like any known camera.
      const raced = unknown.filter((i) => !rows[i]);
      const found = await repo.findByNames(raced.map((i) => arrivals[i]!));
      raced.forEach((i, n) => (rows[i] = found[n]));

      const known = arrivals.flatMap((a, i) => {
        const row = rows[i];
        return row && !registered.includes(row) ? [{ a, i, row }] : [];
      });
      const stamped = await repo.stampArrived(
        known.filter((k) => needsStamp(k.row, k.a.at)).map((k) => ({ cameraId: k.row.id, at: k.a.at })),
      );
      const stampedUsers = new Set<string>();
      for (const { a, i, row } of known) {
        const after = stamped.find((s) => s.id === row.id);
        rows[i] = after ?? row;
        if (announces(row, a.at)) changedUsers.add(a.userId);
        else if (after) stampedUsers.add(a.userId);
      }
      for (const userId of changedUsers) await events.emit('cameras.changed', { userId });
      for (const userId of stampedUsers)
        if (!changedUsers.has(userId)) await events.emit('cameras.stamped', { userId });
      return rows.map((row, i) => {
        if (!row) throw new Error(`camera ${arrivals[i]!.name} could not be registered`);
        return row;
      });
    },
  };
}
export type UploadCameras = ReturnType<typeof createUploadCameras>;
