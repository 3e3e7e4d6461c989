import type { Camera } from '@homesitter/contract';

export type CameraStatusKey =
  | 'receivingEvents'
  | 'waitingForEvents'
  | 'pending'
  | 'configuring'
  | 'failed'
  | 'connecting'
  | 'streaming'
  | 'reconnecting'
  | 'private'
  | 'stopped';

export type StatusTone = 'neutral' | 'busy' | 'good' | 'warn' | 'bad';

export interface CameraStatusView {
  key: CameraStatusKey;
  tone: StatusTone;
  /** Why, in the server's words (a failed configuration, a lost stream). */
  reason: string | null;
}

export type StatusFields = Pick<
  Camera,
  | 'connection_type'
  | 'configuration_status'
  | 'configuration_error'
  | 'stream_status'
  | 'stream_error'
  | 'last_activity_date_time_utc'
>;

/**
 * What is true of a camera in one word. Upload cameras have nothing to configure: they either send events
 * or have not yet. Stream cameras show their configuration until it is done, then their stream. Nest
 * cameras show their set-up until it is done, then their events (nothing is pulled while nobody watches). In
 * private mode (the account's or the camera's) nothing is kept, so a camera says "Private" rather than that it
 * receives events or waits for a snapshot.
 */
export function cameraStatus(camera: StatusFields, isPrivate = false): CameraStatusView {
  const privateView: CameraStatusView = { key: 'private', tone: 'warn', reason: null };
  const eventsOnly =
    camera.connection_type === 'upload' ||
    (camera.connection_type === 'nest' && camera.configuration_status === 'configured');
  if (eventsOnly) {
    if (isPrivate) return privateView;
    return camera.last_activity_date_time_utc
      ? { key: 'receivingEvents', tone: 'good', reason: null }
      : { key: 'waitingForEvents', tone: 'neutral', reason: null };
  }
  switch (camera.configuration_status) {
    case 'pending':
      return { key: 'pending', tone: 'neutral', reason: null };
    case 'configuring':
      return { key: 'configuring', tone: 'busy', reason: null };
    case 'failed':
      return { key: 'failed', tone: 'bad', reason: camera.configuration_error };
    case 'configured':
      break;
  }
  if (isPrivate) return privateView;
  switch (camera.stream_status) {
    case 'streaming':
      return { key: 'streaming', tone: 'good', reason: null };
    case 'reconnecting':
      return { key: 'reconnecting', tone: 'warn', reason: camera.stream_error };
    case 'private':
      return privateView;
    case 'stopped':
      return { key: 'stopped', tone: 'neutral', reason: null };
    case 'connecting':
    case null:
      return { key: 'connecting', tone: 'busy', reason: null };
  }
}
