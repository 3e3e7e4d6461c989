import { endpoints } from '@homesitter/contract';
import { describe, expect, it } from 'vitest';
import { apiRoutes } from './apiRoutes';

describe('apiRoutes', () => {
  it('matches the contract endpoints map entry for entry', () => {
    for (const [name, route] of Object.entries(apiRoutes)) {
      const endpoint = endpoints[name as keyof typeof endpoints];
      expect({ method: endpoint.method, path: endpoint.path, access: endpoint.access }, name).toEqual(route);
    }
  });
});
