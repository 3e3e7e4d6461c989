import type { Site } from '@homesitter/contract';
import { describe, expect, it } from 'vitest';
import { defaultSiteUuid } from './api';

const site = (site_uuid: string, name: string): Site => ({
  site_uuid,
  name,
  removed_at: null,
  created_at: '2026-11-25T09:00:00Z',
});

describe('the property a new camera or memory starts with', () => {
  it('is the one just created, else the only one, else none', () => {
    const home = site('s1', 'Home');
    const cabin = site('s2', 'Cabin');
    expect(defaultSiteUuid([home], undefined)).toBe('s1');
    expect(defaultSiteUuid([home, cabin], 's2')).toBe('s2');
    expect(defaultSiteUuid([home, cabin], undefined)).toBeNull();
    // A property created and deleted since is no default.
    expect(defaultSiteUuid([home, cabin], 'gone')).toBeNull();
    expect(defaultSiteUuid([], undefined)).toBeNull();
  });
});
