import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.js';
import { mediaOriginsFromConfig } from './from-config.js';

describe('mediaOriginsFromConfig', () => {
  it('adds nothing when media are files served by the app itself', () => {
    expect(mediaOriginsFromConfig(loadConfig({}))).toEqual([]);
  });

  it("allows AWS S3's virtual-hosted and regional origins", () => {
    const config = loadConfig({ S3_BUCKET: 'family-media', S3_REGION: 'eu-central-1' });
    expect(mediaOriginsFromConfig(config)).toEqual([
      'https://family-media.s3.eu-central-1.amazonaws.com',
      'https://s3.eu-central-1.amazonaws.com',
    ]);
  });

  it('allows an S3-compatible endpoint, path-style or virtual-hosted', () => {
    const env = { S3_BUCKET: 'media', S3_ENDPOINT: 'https://minio.example.com:9000/' };
    expect(mediaOriginsFromConfig(loadConfig({ ...env, S3_FORCE_PATH_STYLE: 'true' }))).toEqual([
      'https://minio.example.com:9000',
    ]);
    expect(mediaOriginsFromConfig(loadConfig(env))).toEqual(['https://media.minio.example.com:9000']);
  });
});
