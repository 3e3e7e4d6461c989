import type { HelperDownload } from '@homesitter/contract';
import { api } from '../../shared/lib/api';
import { serverUrl } from '../../shared/lib/apiOrigin';

export type { HelperDownload };

/** `GET /api/users/helper`: whether this user's helper holds its link to the server right now. */
export async function fetchHelperConnected(): Promise<boolean> {
  return (await api.call('getHelperStatus')).data.connected;
}

/**
 * `GET /api/helper/downloads` (public): the helper builds this server offers; may be none. Their `url` is a
 * path on the server, resolved here against it (shared/lib/apiOrigin.ts).
 */
export async function fetchHelperDownloads(): Promise<HelperDownload[]> {
  return (await api.call('listHelperDownloads')).data.map((d) => ({ ...d, url: serverUrl(d.url) }));
}
