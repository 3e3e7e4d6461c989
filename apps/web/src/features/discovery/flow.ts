import type {
  DiscoveredDevice,
  DiscoveryEvent,
  HelperCameraTestResult,
  StreamConnectionInput,
} from '@homesitter/contract';
import { CAMERA_NAME_MAX } from '@homesitter/contract/runtime';
import { checkStreamForm, type StreamCheck, type StreamFormValues } from '../cameras/add/streamConnection';
import { HELPER_DISCOVERY_TIMEOUT_MS } from '@homesitter/contract/runtime';

/**
 * The discovery flow (docs/product.md §2 "Camera discovery flow"): welcome, scanning, credentials, selection summary,
 * configuration progress. One reducer holds what the owner found and entered, so every step can be left
 * and come back to (the browser's back button included) without losing it.
 */
export const STEPS = ['welcome', 'scan', 'login', 'summary', 'progress'] as const;
export type Step = (typeof STEPS)[number];

export interface Login {
  username: string;
  password: string;
}

export const emptyLogin: Login = { username: '', password: '' };

export type ScanStatus = 'idle' | 'scanning' | 'done' | 'stopped' | 'failed';

export interface ScanState {
  status: ScanStatus;
  /** In the order they were first seen; a later report of the same `id` replaces it in place. */
  devices: DiscoveredDevice[];
  startedAt: number | null;
  timeoutMs: number;
  timedOut: boolean;
}

export type TestState =
  | { status: 'testing' }
  | { status: 'done'; result: HelperCameraTestResult }
  | { status: 'error'; message: string };

/** A camera handed to the helper for configuration, and the job that follows it. */
export interface Submitted {
  deviceId: string;
  jobId: string;
  name: string;
  connection: StreamConnectionInput;
}

export interface FlowState {
  scan: ScanState;
  /** Chosen device ids, in the order they were ticked. */
  selected: string[];
  /** One username and password for every chosen camera (the default), or one each. */
  sameLogin: boolean;
  shared: Login;
  logins: Record<string, Login>;
  /** Cameras with a login of their own although `sameLogin` is on (say, the one that refused it). */
  ownLogin: string[];
  /** The stream address of an RTSP-only camera, as edited (its path is often not announced). */
  urls: Record<string, string>;
  tests: Record<string, TestState>;
  names: Record<string, string>;
  siteUuid: string | null;
  submitted: Submitted[];
  /** A helper call failed after it had worked: the "start it again" screen shows over the step. */
  helperLost: boolean;
}

export const initialFlow: FlowState = {
  scan: {
    status: 'idle',
    devices: [],
    startedAt: null,
    timeoutMs: HELPER_DISCOVERY_TIMEOUT_MS,
    timedOut: false,
  },
  selected: [],
  sameLogin: true,
  shared: emptyLogin,
  logins: {},
  ownLogin: [],
  urls: {},
  tests: {},
  names: {},
  siteUuid: null,
  submitted: [],
  helperLost: false,
};

export type FlowAction =
  | { type: 'scanStarted'; at: number }
  | { type: 'scanEvent'; event: DiscoveryEvent }
  | { type: 'scanEnded' }
  | { type: 'scanStopped' }
  | { type: 'scanFailed' }
  | { type: 'toggle'; id: string }
  | { type: 'setSameLogin'; value: boolean }
  | { type: 'setSharedLogin'; login: Login }
  | { type: 'setLogin'; id: string; login: Login }
  | { type: 'useOwnLogin'; id: string }
  | { type: 'setUrl'; id: string; url: string }
  | { type: 'testStarted'; id: string }
  | { type: 'testFinished'; id: string; result: HelperCameraTestResult }
  | { type: 'testFailed'; id: string; message: string }
  | { type: 'prepareNames'; existing: readonly string[] }
  | { type: 'setName'; id: string; name: string }
  | { type: 'setSite'; siteUuid: string | null }
  | { type: 'submitted'; cameras: Submitted[] }
  | { type: 'helperLost' }
  | { type: 'helperBack' };

function upsert(devices: DiscoveredDevice[], device: DiscoveredDevice): DiscoveredDevice[] {
  const at = devices.findIndex((d) => d.id === device.id);
  if (at < 0) return [...devices, device];
  const next = devices.slice();
  next[at] = device;
  return next;
}

function without<T>(record: Record<string, T>, ids: readonly string[]): Record<string, T> {
  const next = { ...record };
  for (const id of ids) delete next[id];
  return next;
}

function onScanEvent(state: FlowState, event: DiscoveryEvent): FlowState {
  switch (event.type) {
    case 'started':
      return { ...state, scan: { ...state.scan, timeoutMs: event.timeout_ms } };
    case 'device': {
      const { device } = event;
      return {
        ...state,
        scan: { ...state.scan, devices: upsert(state.scan.devices, device) },
        // A device found to be no camera after all cannot stay chosen.
        selected: device.supported ? state.selected : state.selected.filter((id) => id !== device.id),
      };
    }
    case 'done':
      return { ...state, scan: { ...state.scan, status: 'done', timedOut: event.timed_out } };
  }
}

export function flowReducer(state: FlowState, action: FlowAction): FlowState {
  switch (action.type) {
    case 'scanStarted':
      return {
        ...state,
        scan: { ...initialFlow.scan, status: 'scanning', startedAt: action.at },
      };
    case 'scanEvent':
      return onScanEvent(state, action.event);
    case 'scanEnded':
      return state.scan.status === 'scanning' ? { ...state, scan: { ...state.scan, status: 'done' } } : state;
    case 'scanStopped':
      return state.scan.status === 'scanning'
        ? { ...state, scan: { ...state.scan, status: 'stopped' } }
        : state;
    case 'scanFailed':
      return { ...state, scan: { ...state.scan, status: 'failed' } };
    case 'toggle': {
      if (state.selected.includes(action.id)) {
        return { ...state, selected: state.selected.filter((id) => id !== action.id) };
      }
      const device = state.scan.devices.find((d) => d.id === action.id);
      return device?.supported ? { ...state, selected: [...state.selected, action.id] } : state;
    }
    case 'setSameLogin': {
      if (action.value) return { ...state, sameLogin: true, ownLogin: [], tests: {} };
      // Each camera starts from the login shared so far.
      const logins = { ...state.logins };
      for (const id of state.selected) logins[id] = state.ownLogin.includes(id) ? logins[id]! : state.shared;
      return { ...state, sameLogin: false, logins, ownLogin: [], tests: {} };
    }
    case 'setSharedLogin': {
      const shared = state.selected.filter((id) => !state.ownLogin.includes(id));
      return { ...state, shared: action.login, tests: without(state.tests, shared) };
    }
    case 'setLogin':
      return {
        ...state,
        logins: { ...state.logins, [action.id]: action.login },
        tests: without(state.tests, [action.id]),
      };
    case 'useOwnLogin':
      if (!state.sameLogin || state.ownLogin.includes(action.id)) return state;
      return {
        ...state,
        ownLogin: [...state.ownLogin, action.id],
        logins: { ...state.logins, [action.id]: state.logins[action.id] ?? state.shared },
      };
    case 'setUrl':
      return {
        ...state,
        urls: { ...state.urls, [action.id]: action.url },
        tests: without(state.tests, [action.id]),
      };
    case 'testStarted':
      return { ...state, tests: { ...state.tests, [action.id]: { status: 'testing' } } };
    case 'testFinished':
      return { ...state, tests: { ...state.tests, [action.id]: { status: 'done', result: action.result } } };
    case 'testFailed':
      return {
        ...state,
        tests: { ...state.tests, [action.id]: { status: 'error', message: action.message } },
      };
    case 'prepareNames': {
      const names = { ...state.names };
      const taken = [...action.existing];
      for (const device of selectedDevices(state)) {
        const name = names[device.id] ?? uniqueName(defaultName(device), taken);
        names[device.id] = name;
        taken.push(name);
      }
      return { ...state, names };
    }
    case 'setName':
      return { ...state, names: { ...state.names, [action.id]: action.name } };
    case 'setSite':
      return { ...state, siteUuid: action.siteUuid };
    case 'submitted': {
      const ids = action.cameras.map((c) => c.deviceId);
      return {
        ...state,
        submitted: [...state.submitted.filter((s) => !ids.includes(s.deviceId)), ...action.cameras],
        selected: state.selected.filter((id) => !ids.includes(id)),
      };
    }
    case 'helperLost':
      return { ...state, helperLost: true };
    case 'helperBack':
      return { ...state, helperLost: false };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading the state
// ---------------------------------------------------------------------------------------------------------

/** The chosen cameras that are still on the list and supported, in the list's order. */
export function selectedDevices(state: Pick<FlowState, 'scan' | 'selected'>): DiscoveredDevice[] {
  return state.scan.devices.filter((d) => d.supported && state.selected.includes(d.id));
}

/** Whether this camera has a login of its own (else it uses the one for all). */
export const hasOwnLogin = (state: FlowState, id: string) => !state.sameLogin || state.ownLogin.includes(id);

export function loginFor(state: FlowState, id: string): Login {
  return hasOwnLogin(state, id) ? (state.logins[id] ?? emptyLogin) : state.shared;
}

/** ONVIF when the device offers it (host and port from the probe), else its RTSP address. */
export function connectionValues(state: FlowState, device: DiscoveredDevice): StreamFormValues {
  const login = loginFor(state, device.id);
  if (device.onvif) {
    return {
      type: 'onvif',
      host: device.address,
      port: String(device.onvif.port),
      url: '',
      ...login,
    };
  }
  return {
    type: 'rtsp',
    host: device.address,
    port: '',
    url: state.urls[device.id] ?? device.rtsp?.url ?? `rtsp://${device.address}:554/`,
    ...login,
  };
}

/** The `connection` the helper tests and configures, or what is wrong with the fields. */
export const connectionFor = (state: FlowState, device: DiscoveredDevice): StreamCheck =>
  checkStreamForm(connectionValues(state, device));

/** What a found device is called on screen: its own name, else its make and model, else its address. */
export function deviceTitle(device: DiscoveredDevice): string {
  const name = device.name?.trim();
  if (name) return name;
  const model = [device.manufacturer, device.model].filter(Boolean).join(' ').trim();
  return model || device.address;
}

/** A first name for a camera: what it announces, else its model, else "Camera 192.168.1.20". */
export function defaultName(device: DiscoveredDevice): string {
  const name = device.name?.trim() || device.model?.trim() || `Camera ${device.address}`;
  return name.slice(0, CAMERA_NAME_MAX);
}

/** `base`, or `base 2`, `base 3`… whichever no camera has yet (names compare ignoring case). */
export function uniqueName(base: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((n) => n.trim().toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let n = 2; ; n += 1) {
    const suffix = ` ${n}`;
    const candidate = `${base.slice(0, CAMERA_NAME_MAX - suffix.length)}${suffix}`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

/** Steps that need something chosen first; without it the flow goes back to the scan. */
export function reachableStep(step: Step, state: FlowState): Step {
  if ((step === 'login' || step === 'summary') && selectedDevices(state).length === 0) {
    return state.scan.status === 'idle' ? 'welcome' : 'scan';
  }
  if (step === 'progress' && state.submitted.length === 0) {
    return state.scan.status === 'idle' ? 'welcome' : 'scan';
  }
  return step;
}
