import { describe, expect, it, vi } from 'vitest';
import { createEventBus } from './events.js';
import { createLogger } from './logger.js';

describe('event bus', () => {
  it('delivers an event to every handler, and one failing handler does not stop the others', async () => {
    const bus = createEventBus(createLogger('silent'));
    const seen: string[] = [];
    bus.on('user.deleted', () => {
      throw new Error('boom');
    });
    bus.on('user.deleted', async ({ userId }) => {
      seen.push(userId);
    });
    await bus.emit('user.deleted', { userId: 'u1', subject: 's1' });
    expect(seen).toEqual(['u1']);
  });

  it('does nothing for an event nobody listens to', async () => {
    const bus = createEventBus(createLogger('silent'));
    const spy = vi.fn();
    bus.on('user.deleted', spy);
    expect(spy).not.toHaveBeenCalled();
    await expect(bus.emit('user.deleted', { userId: 'u', subject: 's' })).resolves.toBeUndefined();
  });
});
