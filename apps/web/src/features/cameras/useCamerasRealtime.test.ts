import { CAMERA_CONFIGURATION_ERRORS } from '@homesitter/contract/runtime';
import { describe, expect, it } from 'vitest';
import { changesFrom } from './useCamerasRealtime';

describe('a CamerasChanged message as changes to the camera', () => {
  it('carries a failure with its sentence and code', () => {
    expect(
      changesFrom({
        camera_name: 'Gate',
        configuration_status: 'failed',
        configuration_error: CAMERA_CONFIGURATION_ERRORS.timed_out,
        configuration_error_code: 'timed_out',
        stream_status: null,
      }),
    ).toEqual({
      configuration_status: 'failed',
      configuration_error: CAMERA_CONFIGURATION_ERRORS.timed_out,
      configuration_error_code: 'timed_out',
      stream_status: null,
    });
  });

  it('clears an earlier failure when configuration moves on, and leaves out what it does not say', () => {
    expect(changesFrom({ camera_name: 'Gate', configuration_status: 'configuring' })).toEqual({
      configuration_status: 'configuring',
      configuration_error: null,
      configuration_error_code: null,
    });
    expect(changesFrom({ camera_name: 'Gate', stream_status: 'reconnecting' })).toEqual({
      stream_status: 'reconnecting',
    });
  });
});
