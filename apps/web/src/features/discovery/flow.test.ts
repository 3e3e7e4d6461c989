import type { DiscoveryEvent } from '@homesitter/contract';
import { describe, expect, it } from 'vitest';
import { device, testResult } from '../../test/fakeHelper';
import {
  connectionFor,
  flowReducer,
  initialFlow,
  reachableStep,
  selectedDevices,
  uniqueName,
  type FlowAction,
  type FlowState,
} from './flow';

const run = (actions: FlowAction[], from: FlowState = initialFlow) => actions.reduce(flowReducer, from);
const found = (d: Parameters<typeof device>[0]): FlowAction => ({
  type: 'scanEvent',
  event: { type: 'device', device: device(d) } satisfies DiscoveryEvent,
});

const front = { address: '192.168.1.20', name: 'Front door' };
const garden = { address: '192.168.1.21', model: 'Cam 2' };
const rtspOnly = {
  address: '192.168.1.22',
  onvif: null,
  rtsp: { port: 554, url: 'rtsp://192.168.1.22:554/' },
};
const printer = {
  address: '192.168.1.30',
  supported: false,
  onvif: null,
  rtsp: null,
  unsupported_code: 'not_a_camera' as const,
};

describe('the scanning list', () => {
  it('adds devices as they stream in and replaces a device reported again, in place', () => {
    const state = run([
      { type: 'scanStarted', at: 1 },
      found(front),
      found(garden),
      found({ ...front, manufacturer: 'Acme', needs_credentials: false }),
    ]);
    expect(state.scan.devices.map((d) => d.address)).toEqual(['192.168.1.20', '192.168.1.21']);
    expect(state.scan.devices[0]).toMatchObject({ manufacturer: 'Acme', needs_credentials: false });
  });

  it('takes the helper’s time limit, ends done or timed out, and a rescan starts empty', () => {
    let state = run([
      { type: 'scanStarted', at: 1 },
      { type: 'scanEvent', event: { type: 'started', subnets: [], timeout_ms: 30_000 } },
      found(front),
      { type: 'scanEvent', event: { type: 'done', devices: 1, timed_out: true } },
    ]);
    expect(state.scan).toMatchObject({ status: 'done', timedOut: true, timeoutMs: 30_000 });
    state = run([{ type: 'scanStarted', at: 2 }], state);
    expect(state.scan).toMatchObject({ status: 'scanning', devices: [], startedAt: 2 });
  });

  it('selects only supported devices, and drops one found unsupported after all', () => {
    let state = run([{ type: 'scanStarted', at: 1 }, found(front), found(printer), found(garden)]);
    state = run(
      [
        { type: 'toggle', id: '192.168.1.30' },
        { type: 'toggle', id: '192.168.1.20' },
      ],
      state,
    );
    expect(state.selected).toEqual(['192.168.1.20']);
    state = run([{ type: 'toggle', id: '192.168.1.21' }, found({ ...garden, supported: false })], state);
    expect(selectedDevices(state).map((d) => d.address)).toEqual(['192.168.1.20']);
    state = run([{ type: 'toggle', id: '192.168.1.20' }], state);
    expect(state.selected).toEqual([]);
  });
});

describe('credentials', () => {
  const chosen = run([
    { type: 'scanStarted', at: 1 },
    found(front),
    found(rtspOnly),
    { type: 'toggle', id: '192.168.1.20' },
    { type: 'toggle', id: '192.168.1.22' },
  ]);
  const [onvifCam, rtspCam] = selectedDevices(chosen);

  it('uses one login for all: ONVIF by host and port, RTSP-only by its address', () => {
    const state = run([{ type: 'setSharedLogin', login: { username: 'admin', password: 'pw' } }], chosen);
    expect(connectionFor(state, onvifCam!).connection).toEqual({
      type: 'onvif',
      host: '192.168.1.20',
      port: 80,
      username: 'admin',
      password: 'pw',
    });
    expect(connectionFor(state, rtspCam!).connection).toEqual({
      type: 'rtsp',
      url: 'rtsp://192.168.1.22:554/',
      username: 'admin',
      password: 'pw',
    });
  });

  it('gives one camera its own login while the others keep the shared one', () => {
    const state = run(
      [
        { type: 'setSharedLogin', login: { username: 'admin', password: 'pw' } },
        { type: 'useOwnLogin', id: '192.168.1.22' },
        { type: 'setLogin', id: '192.168.1.22', login: { username: 'viewer', password: 'other' } },
        { type: 'setUrl', id: '192.168.1.22', url: 'rtsp://192.168.1.22:554/stream1' },
      ],
      chosen,
    );
    expect(connectionFor(state, onvifCam!).connection).toMatchObject({ username: 'admin', password: 'pw' });
    expect(connectionFor(state, rtspCam!).connection).toEqual({
      type: 'rtsp',
      url: 'rtsp://192.168.1.22:554/stream1',
      username: 'viewer',
      password: 'other',
    });
  });

  it('gives every camera its own login, starting from the shared one, when "same for all" is off', () => {
    let state = run(
      [
        { type: 'setSharedLogin', login: { username: 'admin', password: 'pw' } },
        { type: 'setSameLogin', value: false },
      ],
      chosen,
    );
    state = run(
      [{ type: 'setLogin', id: '192.168.1.20', login: { username: 'root', password: 'x' } }],
      state,
    );
    expect(connectionFor(state, onvifCam!).connection).toMatchObject({ username: 'root', password: 'x' });
    expect(connectionFor(state, rtspCam!).connection).toMatchObject({ username: 'admin', password: 'pw' });
  });

  it('forgets a test when the login it used changes', () => {
    let state = run([{ type: 'testFinished', id: '192.168.1.20', result: testResult() }], chosen);
    expect(state.tests['192.168.1.20']).toMatchObject({ status: 'done' });
    state = run([{ type: 'setSharedLogin', login: { username: 'a', password: 'b' } }], state);
    expect(state.tests['192.168.1.20']).toBeUndefined();
  });

  it('reports a field problem instead of a connection', () => {
    const state = run([{ type: 'setUrl', id: '192.168.1.22', url: 'http://nope' }], chosen);
    expect(connectionFor(state, rtspCam!)).toEqual({ connection: null, problems: { url: 'urlInvalid' } });
  });
});

describe('names, configuration and steps', () => {
  it('prefills unique names from what the cameras announce', () => {
    const state = run([
      { type: 'scanStarted', at: 1 },
      found(front),
      found({ address: '192.168.1.23', name: 'front door' }),
      found(garden),
      found(rtspOnly),
      ...['192.168.1.20', '192.168.1.23', '192.168.1.21', '192.168.1.22'].map((id): FlowAction => ({
        type: 'toggle',
        id,
      })),
      { type: 'prepareNames', existing: ['Cam 2'] },
    ]);
    expect(state.names).toEqual({
      '192.168.1.20': 'Front door',
      '192.168.1.23': 'front door 2',
      '192.168.1.21': 'Cam 2 2',
      '192.168.1.22': 'Camera 192.168.1.22',
    });
    expect(uniqueName('x'.repeat(100), ['x'.repeat(100)])).toHaveLength(100);
  });

  it('moves configured cameras out of the selection, and sends steps without a selection back', () => {
    let state = run([{ type: 'scanStarted', at: 1 }, found(front), { type: 'toggle', id: '192.168.1.20' }]);
    expect(reachableStep('summary', state)).toBe('summary');
    expect(reachableStep('progress', state)).toBe('scan');
    state = run(
      [
        {
          type: 'submitted',
          cameras: [
            {
              deviceId: '192.168.1.20',
              jobId: 'job-1',
              name: 'Front door',
              connection: { type: 'onvif', host: '192.168.1.20', username: '', password: '' },
            },
          ],
        },
      ],
      state,
    );
    expect(state.selected).toEqual([]);
    expect(reachableStep('summary', state)).toBe('scan');
    expect(reachableStep('progress', state)).toBe('progress');
    expect(reachableStep('login', initialFlow)).toBe('welcome');
  });
});
