import { HELPER_ERROR_CODES } from '@homesitter/contract';

/** A refusal of the local API: its status and the `{ error: { code, message } }` it answers. */
export class HelperError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HelperError';
  }
}

/** Every refusal the local API makes, with its stable code. */
export const helperErrors = {
  notSignedIn: () =>
    new HelperError(401, HELPER_ERROR_CODES.notSignedIn, 'Sign in to Homesitter in the helper first'),
  originNotAllowed: (origin: string) =>
    new HelperError(
      403,
      HELPER_ERROR_CODES.originNotAllowed,
      `The helper does not answer pages from ${origin}; only the Homesitter app may use it`,
    ),
  hostNotAllowed: () =>
    new HelperError(
      403,
      HELPER_ERROR_CODES.originNotAllowed,
      'The helper only answers requests addressed to 127.0.0.1 or localhost',
    ),
  invalidRequest: (message: string, status = 400) =>
    new HelperError(status, HELPER_ERROR_CODES.invalidRequest, message),
  notFound: (message: string) => new HelperError(404, HELPER_ERROR_CODES.notFound, message),
  busy: (message: string) => new HelperError(409, HELPER_ERROR_CODES.busy, message),
  internal: () => new HelperError(500, 'helper.internal', 'Something went wrong in the helper; see its log'),
};
