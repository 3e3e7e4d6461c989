/**
 * The ONVIF requests the phone's camera check sends with the owner's login (GetDeviceInformation, GetServices,
 * GetProfiles, GetStreamUri, GetSnapshotUri) and how their answers are read. The login travels as a WS-Security
 * UsernameToken (PasswordDigest = Base64(SHA-1(nonce + created + password))), as every ONVIF camera takes it;
 * SHA-1 comes from Web Crypto, so this runs in the phone's web view as in Node.
 */
import { elements, elementText, hasElement } from '../discovery/xml.js';

const SOAP_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD_DIGEST =
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
const BASE64_BINARY =
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
export const DEVICE_NS = 'http://www.onvif.org/ver10/device/wsdl';
export const MEDIA_NS = 'http://www.onvif.org/ver10/media/wsdl';
const SCHEMA_NS = 'http://www.onvif.org/ver10/schema';

export interface OnvifProfile {
  token: string;
  encoding: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
}

/** A SOAP 1.2 envelope around `operation`, with the login's UsernameToken in its header. */
export async function securedEnvelope(
  operation: string,
  login: { username: string; password: string },
  now: Date = new Date(),
): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(16));
  const created = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const material = new Uint8Array([
    ...nonce,
    ...new TextEncoder().encode(created),
    ...new TextEncoder().encode(login.password),
  ]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', material));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<s:Envelope xmlns:s="${SOAP_ENVELOPE}" xmlns:tds="${DEVICE_NS}" xmlns:trt="${MEDIA_NS}" ` +
    `xmlns:tt="${SCHEMA_NS}"><s:Header>` +
    `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" s:mustUnderstand="1"><wsse:UsernameToken>` +
    `<wsse:Username>${escapeXml(login.username)}</wsse:Username>` +
    `<wsse:Password Type="${PASSWORD_DIGEST}">${base64(digest)}</wsse:Password>` +
    `<wsse:Nonce EncodingType="${BASE64_BINARY}">${base64(nonce)}</wsse:Nonce>` +
    `<wsu:Created>${created}</wsu:Created></wsse:UsernameToken></wsse:Security>` +
    `</s:Header><s:Body>${operation}</s:Body></s:Envelope>`
  );
}

export const REQUESTS = {
  deviceInformation: '<tds:GetDeviceInformation/>',
  services: '<tds:GetServices><tds:IncludeCapability>false</tds:IncludeCapability></tds:GetServices>',
  profiles: '<trt:GetProfiles/>',
  streamUri: (token: string) =>
    '<trt:GetStreamUri><trt:StreamSetup><tt:Stream>RTP-Unicast</tt:Stream><tt:Transport>' +
    `<tt:Protocol>RTSP</tt:Protocol></tt:Transport></trt:StreamSetup><trt:ProfileToken>${escapeXml(token)}` +
    '</trt:ProfileToken></trt:GetStreamUri>',
  snapshotUri: (token: string) =>
    `<trt:GetSnapshotUri><trt:ProfileToken>${escapeXml(token)}</trt:ProfileToken></trt:GetSnapshotUri>`,
};

/** The media service's address from a GetServices answer; null when the device lists none. */
export function mediaServiceAddress(xml: string): string | null {
  for (const service of elements(xml, 'Service')) {
    if (elementText(service, 'Namespace') === MEDIA_NS) return elementText(service, 'XAddr');
  }
  return null;
}

/** The profiles of a GetProfiles answer with their video encoder's codec, size and frame rate. */
export function parseProfiles(xml: string): OnvifProfile[] {
  const profiles: OnvifProfile[] = [];
  for (const match of xml.matchAll(/<(?:[\w-]+:)?Profiles\b([^>]*)>([\s\S]*?)<\/(?:[\w-]+:)?Profiles>/g)) {
    const token = /\btoken="([^"]*)"/.exec(match[1]!)?.[1];
    if (!token) continue;
    const encoder = elements(match[2]!, 'VideoEncoderConfiguration')[0] ?? '';
    const resolution = elements(encoder, 'Resolution')[0] ?? '';
    const number = (text: string | null) => (text !== null && /^\d+$/.test(text) ? Number(text) : null);
    profiles.push({
      token,
      encoding: elementText(encoder, 'Encoding'),
      width: number(elementText(resolution, 'Width')),
      height: number(elementText(resolution, 'Height')),
      fps: number(elementText(encoder, 'FrameRateLimit')),
    });
  }
  return profiles;
}

/** The `Uri` of a GetStreamUri or GetSnapshotUri answer. */
export function mediaUri(xml: string): string | null {
  return hasElement(xml, 'MediaUri') ? elementText(elements(xml, 'MediaUri')[0] ?? '', 'Uri') : null;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
