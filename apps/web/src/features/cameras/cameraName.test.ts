import { MESSAGES } from '@homesitter/contract/runtime';
import { describe, expect, it } from 'vitest';
import { cameraNameProblem, problemFromServer } from './cameraName';

describe('camera names (docs/product.md §5)', () => {
  it('are required, at most 100 characters and unique ignoring case', () => {
    expect(cameraNameProblem('  ', [])).toBe('required');
    expect(cameraNameProblem('x'.repeat(101), [])).toBe('tooLong');
    expect(cameraNameProblem('front door', ['Front Door'])).toBe('taken');
    expect(cameraNameProblem('Back', ['Front Door'])).toBeNull();
  });

  it('may keep their own name (any case) when renamed', () => {
    expect(cameraNameProblem('FRONT DOOR', ['Front Door', 'Back'], 'Front Door')).toBeNull();
    expect(cameraNameProblem('back', ['Front Door', 'Back'], 'Front Door')).toBe('taken');
  });

  it('map the server’s §5 answers onto the inline problems', () => {
    expect(problemFromServer(MESSAGES.cameraNameRequired)).toBe('required');
    expect(problemFromServer(MESSAGES.cameraNameTaken)).toBe('taken');
    expect(problemFromServer('Failed to update camera settings')).toBeNull();
  });
});
