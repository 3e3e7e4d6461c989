import type { CamerasChangedEvent } from '@homesitter/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../shared/lib/useRealtime';
import { cameraDetailsKey, cameraKey, camerasKey, mergeCamera, type CameraStatusChanges } from './api';

/**
 * The statuses a `CamerasChanged` message carries, as changes to that camera (a failure's sentence and its
 * code together, so an earlier failure's code never stays).
 */
export function changesFrom(event: CamerasChangedEvent): CameraStatusChanges {
  const changes: CameraStatusChanges = {};
  if (event.configuration_status !== undefined) {
    changes.configuration_status = event.configuration_status;
    if (event.configuration_status !== 'failed') {
      changes.configuration_error = null;
      changes.configuration_error_code = null;
    }
  }
  if (event.configuration_error !== undefined) {
    changes.configuration_error = event.configuration_error;
    changes.configuration_error_code = event.configuration_error_code ?? null;
  }
  if (event.stream_status !== undefined) changes.stream_status = event.stream_status;
  return changes;
}

/**
 * While a cameras screen is shown: `CamerasChanged` puts a camera's new configuration and stream status on
 * screen at once and refreshes the lists; `ActivityCreated` refreshes them too (last activity, snapshot).
 */
export function useCamerasRealtime() {
  const queryClient = useQueryClient();
  useRealtimeEvent('CamerasChanged', (event) => {
    if (event.camera_name) {
      mergeCamera(queryClient, event.camera_name, changesFrom(event));
      void queryClient.invalidateQueries({ queryKey: cameraKey(event.camera_name) });
    } else {
      void queryClient.invalidateQueries({ queryKey: cameraDetailsKey });
    }
    void queryClient.invalidateQueries({ queryKey: camerasKey });
  });
  useRealtimeEvent('ActivityCreated', (event) => {
    void queryClient.invalidateQueries({ queryKey: camerasKey });
    if (event.camera_name) void queryClient.invalidateQueries({ queryKey: cameraKey(event.camera_name) });
  });
}
