import type {
  CameraConnectionInput,
  CameraConnectionSummary,
  StreamConnectionInput,
} from '@homesitter/contract';

/**
 * The add-camera form of a stream camera and its checks, the same rules as the contract's
 * `cameraConnectionInputSchema` (the browser bundle carries no zod), so the server's 400 is rare.
 */
export type StreamType = 'onvif' | 'rtsp';

export interface StreamFormValues {
  type: StreamType;
  host: string;
  port: string;
  url: string;
  username: string;
  password: string;
}

export type StreamField = 'host' | 'port' | 'url' | 'username' | 'password';

export type StreamProblem =
  | 'hostRequired'
  | 'hostInvalid'
  | 'hostTooLong'
  | 'portInvalid'
  | 'urlRequired'
  | 'urlInvalid'
  | 'urlTooLong'
  | 'controlCharacters'
  | 'usernameTooLong'
  | 'passwordTooLong';

export const DEFAULT_ONVIF_PORT = 80;
const HOST_MAX = 253;
const URL_MAX = 2048;
const USERNAME_MAX = 128;
const PASSWORD_MAX = 256;

export const emptyStreamForm: StreamFormValues = {
  type: 'onvif',
  host: '',
  port: String(DEFAULT_ONVIF_PORT),
  url: '',
  username: '',
  password: '',
};

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** A hostname or an IP address (v4, or v6 with or without brackets): no scheme, path or port. */
const HOST =
  /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?)$/;

function hostProblem(value: string): StreamProblem | null {
  const host = value.trim();
  if (!host) return 'hostRequired';
  if (host.length > HOST_MAX) return 'hostTooLong';
  return HOST.test(host) ? null : 'hostInvalid';
}

function portProblem(value: string): StreamProblem | null {
  const port = value.trim();
  if (!port) return null;
  const n = /^\d+$/.test(port) ? Number(port) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? null : 'portInvalid';
}

function urlProblem(value: string): StreamProblem | null {
  const url = value.trim();
  if (!url) return 'urlRequired';
  if (url.length > URL_MAX) return 'urlTooLong';
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'rtsp:' || parsed.protocol === 'rtsps:') && parsed.hostname !== ''
      ? null
      : 'urlInvalid';
  } catch {
    return 'urlInvalid';
  }
}

function loginProblem(value: string, max: number, tooLong: StreamProblem): StreamProblem | null {
  if (CONTROL.test(value)) return 'controlCharacters';
  return value.length > max ? tooLong : null;
}

export interface StreamCheck {
  /** What to send as `connection`, when every field is right. */
  connection: StreamConnectionInput | null;
  problems: Partial<Record<StreamField, StreamProblem>>;
}

/** Checks the form and builds the `connection` of `POST /api/users/cameras`. */
export function checkStreamForm(values: StreamFormValues): StreamCheck {
  const problems: Partial<Record<StreamField, StreamProblem>> = {};
  const note = (field: StreamField, problem: StreamProblem | null) => {
    if (problem) problems[field] = problem;
  };
  if (values.type === 'onvif') {
    note('host', hostProblem(values.host));
    note('port', portProblem(values.port));
  } else {
    note('url', urlProblem(values.url));
  }
  note('username', loginProblem(values.username, USERNAME_MAX, 'usernameTooLong'));
  note('password', loginProblem(values.password, PASSWORD_MAX, 'passwordTooLong'));
  if (Object.keys(problems).length > 0) return { connection: null, problems };

  if (values.type === 'onvif') {
    const port = values.port.trim();
    return {
      problems,
      connection: {
        type: 'onvif',
        host: values.host.trim(),
        ...(port ? { port: Number(port) } : {}),
        username: values.username,
        password: values.password,
      },
    };
  }
  return {
    problems,
    connection: {
      type: 'rtsp',
      url: values.url.trim(),
      ...(values.username ? { username: values.username } : {}),
      ...(values.password ? { password: values.password } : {}),
    },
  };
}

/** Which field a server's validation detail (`connection.url`, say) is about. */
export function fieldOf(path: string): StreamField | null {
  const last = path.split('.').pop();
  return last === 'host' || last === 'port' || last === 'url' || last === 'username' || last === 'password'
    ? last
    : null;
}

/**
 * The form as the server remembers a camera (no password: it never leaves the server). A camera bridged by
 * the desktop helper shows the address the helper reported, as an RTSP address.
 */
export function formFromSummary(summary: CameraConnectionSummary | null): StreamFormValues {
  if (!summary) return emptyStreamForm;
  return {
    type: summary.type === 'helper' ? 'rtsp' : summary.type,
    host: summary.host ?? '',
    port: summary.port ? String(summary.port) : String(DEFAULT_ONVIF_PORT),
    url: summary.url ?? '',
    username: summary.username ?? '',
    password: '',
  };
}

/** Whether two connections would reach the camera the same way. */
export function sameConnection(a: CameraConnectionInput | null, b: CameraConnectionInput | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
