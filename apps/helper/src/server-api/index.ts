// The front door of the helper's Homesitter API client.
export { createAuthApi, type AuthApi } from './auth-api.js';
export { ServerApiError, webSocketUrl, type Fetch } from './request.js';
export {
  createServerApi,
  notSignedInError,
  type IngestFile,
  type ServerApi,
  type TokenSource,
} from './server-api.js';
