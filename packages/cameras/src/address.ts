/**
 * A camera address as it may be shown or stored beside its login: without a login typed into it
 * (`rtsp://user:pass@host/…`, as camera manuals print them). Something that is not a URL keeps everything
 * but what stands between `://` and `@`.
 */
export function addressWithoutLogin(address: string): string {
  try {
    const url = new URL(address);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return address.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
  }
}
