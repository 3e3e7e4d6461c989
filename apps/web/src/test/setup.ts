import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  // A test that talks to simulated cameras over real sockets runs in Node (`@vitest-environment node`): no DOM.
  if (typeof window === 'undefined') return;
  cleanup();
  window.localStorage.clear();
});
