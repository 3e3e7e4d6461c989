import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { jobSettingsFromConfig, retriesWithin } from './job-settings.js';

describe('job settings from the configuration', () => {
  it('spreads the retries of a failed push or text over the retry window', () => {
    // 30 s, 60 s, 120 s … the seventh retry starts past the hour (30 · (2^7 − 1) = 3810 s at the least).
    expect(retriesWithin(30, 3600)).toBe(7);
    expect(retriesWithin(1, 3600)).toBe(12);
    expect(retriesWithin(600, 600)).toBe(1);
  });

  it('gives the upload path its own expiries and checks for expired jobs every 30 s by default', () => {
    const settings = jobSettingsFromConfig(loadConfig({}));
    expect(settings.expireInSeconds).toEqual({ 'activities.process-upload': 180, 'analysis.analyse': 600 });
    expect(settings.maintenanceIntervalSeconds).toBe(30);
    expect(settings.retryPolicy?.['notifications.retry-channel']).toEqual({
      retryDelaySeconds: 30,
      retryLimit: 7,
    });
  });

  it('takes them from the environment', () => {
    const settings = jobSettingsFromConfig(
      loadConfig({
        JOB_EXPIRE_UPLOAD_SECONDS: '10',
        JOB_EXPIRE_ANALYSIS_SECONDS: '20',
        JOB_MAINTENANCE_SECONDS: '2',
      }),
    );
    expect(settings.expireInSeconds).toEqual({ 'activities.process-upload': 10, 'analysis.analyse': 20 });
    expect(settings.maintenanceIntervalSeconds).toBe(2);
  });
});
