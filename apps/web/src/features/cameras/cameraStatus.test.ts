import { describe, expect, it } from 'vitest';
import { cameraFixture } from '../../test/cameraFixtures';
import { cameraStatus } from './cameraStatus';

describe('what a camera badge says', () => {
  it('upload cameras: events or not yet, whatever their configuration status', () => {
    expect(cameraStatus(cameraFixture({ configuration_status: 'pending' })).key).toBe('waitingForEvents');
    expect(cameraStatus(cameraFixture({ last_activity_date_time_utc: '2026-11-25T10:00:00Z' })).key).toBe(
      'receivingEvents',
    );
  });

  it('in private mode (the account\'s or the camera\'s): "Private", not receiving events or a stream', () => {
    const upload = cameraFixture({ last_activity_date_time_utc: '2026-11-25T10:00:00Z' });
    expect(cameraStatus(upload, true)).toEqual({ key: 'private', tone: 'warn', reason: null });
    const stream = cameraFixture({
      connection_type: 'onvif',
      configuration_status: 'configured',
      stream_status: 'streaming',
    });
    expect(cameraStatus(stream, true).key).toBe('private');
    // A setup that failed still says why: private mode does not fix it.
    expect(cameraStatus({ ...stream, configuration_status: 'failed' }, true).key).toBe('failed');
  });

  it('stream cameras: the configuration until it is done, then the stream', () => {
    const stream = (over: Parameters<typeof cameraFixture>[0]) =>
      cameraStatus(cameraFixture({ connection_type: 'onvif', ...over }));
    expect(stream({ configuration_status: 'configuring' }).key).toBe('configuring');
    expect(stream({ configuration_status: 'failed', configuration_error: 'No.' })).toEqual({
      key: 'failed',
      tone: 'bad',
      reason: 'No.',
    });
    expect(stream({ configuration_status: 'configured', stream_status: 'streaming' }).key).toBe('streaming');
    expect(stream({ configuration_status: 'configured', stream_status: 'private' }).key).toBe('private');
    expect(stream({ configuration_status: 'configured', stream_status: null }).key).toBe('connecting');
  });
});
