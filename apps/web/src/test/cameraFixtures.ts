import type { Camera, CameraDetail } from '@homesitter/contract';

/** A camera as the API answers it; upload camera unless told otherwise. */
export function cameraFixture(over: Partial<Camera> = {}): Camera {
  return {
    camera_uuid: 'c1',
    name: 'Driveway',
    settings: {
      notes: null,
      is_private_mode_enabled: false,
      is_muted: false,
      only_unusual_alerts: false,
      is_facial_recognition_enabled: false,
      has_credentials: false,
      motion_sensitivity: 6,
    },
    site_uuid: null,
    removed_date_time_utc: null,
    last_activity_date_time_utc: null,
    configuration_status: 'pending',
    connection_type: 'upload',
    configuration_error: null,
    configuration_error_code: null,
    stream_status: null,
    stream_error: null,
    snapshot_url: null,
    snapshot_date_time_utc: null,
    snapshot_focus: { x: 0.5, y: 0.5 },
    created_at: '2026-11-25T09:00:00Z',
    private_events_today: 0,
    ...over,
  };
}

export function cameraDetailFixture(over: Partial<CameraDetail> = {}): CameraDetail {
  const base = cameraFixture(over);
  return {
    ...base,
    settings: { ...base.settings, username: null, password: null },
    connection: null,
    ...over,
  };
}
