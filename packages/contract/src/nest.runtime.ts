/** Google Nest: the plain values server and browser share (no zod here); docs/nest.md. */

/** Google sends the browser back here after consent: `{PUBLIC_URL}/api/nest/callback?code&state`. */
export const NEST_CALLBACK_PATH = '/api/nest/callback';

/**
 * How a link attempt ended, as the callback tells the cameras page: `/cameras?nest=<outcome>`. Each has its
 * own wording in the app (en and de).
 * - `linked`: the account is linked and its cameras are being added;
 * - `denied`: the owner declined on Google's consent page (`error=access_denied`);
 * - `state_invalid`: the answer was forged, replayed, of another server, or expired (nothing was exchanged);
 * - `exchange_failed`: Google refused to exchange the code, or could not be reached;
 * - `not_configured`: this server has no `NEST_PROJECT_ID` (or OAuth client).
 */
export const NEST_LINK_OUTCOMES = [
  'linked',
  'denied',
  'state_invalid',
  'exchange_failed',
  'not_configured',
] as const;
export type NestLinkOutcome = (typeof NEST_LINK_OUTCOMES)[number];
/** The query parameter of `/cameras` that carries the outcome. */
export const NEST_OUTCOME_PARAM = 'nest';

/** A consent round trip must come back within this time; its `state` is refused after it. */
export const NEST_LINK_STATE_TTL_S = 10 * 60;

/**
 * The operator's set-up guide (docs/nest.md as plain text), served by every server: the app links it when
 * this server is not set up for Nest.
 */
export const NEST_GUIDE_PATH = '/api/nest/guide';

/** What kind of Nest device a camera is (from the SDM device `type`). */
export const NEST_DEVICE_KINDS = ['camera', 'doorbell', 'display'] as const;
export type NestDeviceKind = (typeof NEST_DEVICE_KINDS)[number];
