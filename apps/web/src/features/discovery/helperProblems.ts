import type { DiscoveredDevice, HelperCameraTestResult, HelperJob, HelperStatus } from '@homesitter/contract';
import { HELPER_ERROR_CODES } from '@homesitter/contract/runtime';
import { isHelperError, type HelperClient } from './helperClient';

/**
 * Why the helper cannot be used from this page (docs/product.md §8 "camera discovery problems"), each with a screen of
 * its own:
 * - `not_running`: nothing answers on 127.0.0.1:17429 (not installed, or not started);
 * - `blocked`: the helper runs, but the browser or an ad blocker keeps this page from it. Seen when a
 *   `no-cors` request gets through while the readable one fails, or when the server says this user's
 *   helper is connected while the page cannot reach it;
 * - `outdated`: something answers on the port, but not as a helper this app can talk to ("plugin missing");
 * - `origin_not_allowed`: the helper answers, but serves another Homesitter address than this page's;
 * - `stopped`: it worked a moment ago and then stopped answering (the flow keeps what was entered).
 */
export type HelperProblem =
  | { kind: 'not_running' }
  | { kind: 'blocked'; evidence: 'no_cors' | 'server' }
  | { kind: 'outdated'; version: string | null }
  | { kind: 'origin_not_allowed' }
  | { kind: 'stopped' };

export type HelperCheck = { ready: true; status: HelperStatus } | { ready: false; problem: HelperProblem };

/** A `/status` answer of a helper this app speaks with. */
export function isHelperStatus(value: unknown): value is HelperStatus {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.app === 'homesitter-helper' &&
    typeof v.version === 'string' &&
    typeof v.signed_in === 'boolean' &&
    (v.email === null || typeof v.email === 'string') &&
    typeof v.server_url === 'string'
  );
}

export interface CheckOptions {
  /**
   * Signed in only: the server's word on whether this user's helper is connected to it (`GET
   * /api/users/helper`). The public camera test passes none: it sends the server nothing.
   */
  serverSaysConnected?: () => Promise<boolean>;
}

/** Looks for the helper and, when it cannot be used, says why. */
export async function checkHelper(
  client: Pick<HelperClient, 'status' | 'answersWithoutCors'>,
  options: CheckOptions = {},
): Promise<HelperCheck> {
  let answer: unknown;
  try {
    answer = await client.status();
  } catch (error) {
    if (isHelperError(error, 'refused')) {
      return {
        ready: false,
        problem:
          error.code === HELPER_ERROR_CODES.originNotAllowed
            ? { kind: 'origin_not_allowed' }
            : { kind: 'outdated', version: null },
      };
    }
    if (await client.answersWithoutCors()) {
      return { ready: false, problem: { kind: 'blocked', evidence: 'no_cors' } };
    }
    const connected = await options.serverSaysConnected?.().catch(() => false);
    return {
      ready: false,
      problem: connected ? { kind: 'blocked', evidence: 'server' } : { kind: 'not_running' },
    };
  }
  if (isHelperStatus(answer)) return { ready: true, status: answer };
  const version = (answer as { version?: unknown } | null)?.version;
  return {
    ready: false,
    problem: { kind: 'outdated', version: typeof version === 'string' ? version : null },
  };
}

/** Whether the page is served over https: Safari and older Firefox then refuse plain http to 127.0.0.1. */
export const pageIsHttps = () => window.location.protocol === 'https:';

// ---------------------------------------------------------------------------------------------------------
// Per camera: unsupported devices, test verdicts and configuration failures.
// ---------------------------------------------------------------------------------------------------------

/** Why a found device cannot be chosen: its translated reason key, else the helper's English sentence. */
export function unsupportedReason(device: DiscoveredDevice): { key: string } | { text: string } {
  if (device.unsupported_code) return { key: `device.unsupported.${device.unsupported_code}` };
  return device.unsupported_reason
    ? { text: device.unsupported_reason }
    : { key: 'device.unsupported.unknown' };
}

/**
 * What a camera test means for the owner: it works, or the one thing to change. `h264` is a camera that
 * streams H.265 only (or nothing recordable): switch its video to H.264.
 */
export type TestAdvice =
  | 'works'
  | 'h264'
  | 'wrong_credentials'
  | 'unreachable'
  | 'timed_out'
  | 'invalid_response'
  | 'network_not_allowed'
  | 'failed';

export function testAdvice(result: Pick<HelperCameraTestResult, 'verdict' | 'error_code'>): TestAdvice {
  if (result.verdict === 'works') return 'works';
  if (result.verdict === 'unsupported' || result.error_code === 'no_supported_stream') return 'h264';
  switch (result.error_code) {
    case 'wrong_credentials':
    case 'unreachable':
    case 'timed_out':
    case 'invalid_response':
    case 'network_not_allowed':
      return result.error_code;
    default:
      return 'failed';
  }
}

/** A failed job or test whose fix is another username or password. */
export const needsOtherLogin = (outcome: { error_code: string | null } | null | undefined) =>
  outcome?.error_code === 'wrong_credentials';

/** A failed job whose fix is another camera name (the server refused this one). */
export const needsOtherName = (job: Pick<HelperJob, 'error_code'>) => job.error_code === 'name_taken';

const JOB_ERRORS = new Set([
  'unreachable',
  'wrong_credentials',
  'no_supported_stream',
  'timed_out',
  'network_not_allowed',
  'invalid_response',
  'name_taken',
  'server_error',
]);

/** The translation key of a job's failure, else null (then the helper's sentence is shown). */
export function jobErrorKey(job: Pick<HelperJob, 'error_code'>): string | null {
  return job.error_code && JOB_ERRORS.has(job.error_code) ? `jobErrors.${job.error_code}` : null;
}
