/**
 * What the answers of a probed port mean (module comment of port-probe.ts): the SOAP requests an ONVIF device
 * service is asked without a login and how its answers are read, and the RTSP verdict. No sockets here, so the
 * phone app's discovery (transport/) reads its answers by the same rules.
 */
import { elements, elementText, hasElement } from './xml.js';

export interface RtspFinding {
  kind: 'rtsp';
  address: string;
  port: number;
  /** `rtsp://addr:port`, no path. */
  url: string;
  /** true on a 401, false when DESCRIBE was answered without a login, null when neither. */
  needsCredentials: boolean | null;
}

export interface OnvifFinding {
  kind: 'onvif';
  address: string;
  port: number;
  xaddr: string;
  manufacturer: string | null;
  model: string | null;
  /** true when a request was refused for want of a login; null otherwise (unknown). */
  needsCredentials: boolean | null;
  /** Whether the device offers a media service; null when it would not say without a login. */
  media: boolean | null;
}

export type PortFinding = RtspFinding | OnvifFinding;

const SOAP_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';
const DEVICE_WSDL = 'http://www.onvif.org/ver10/device/wsdl';

function soapBody(operation: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<s:Envelope xmlns:s="${SOAP_ENVELOPE}" xmlns:tds="${DEVICE_WSDL}"><s:Body>${operation}</s:Body></s:Envelope>`
  );
}

export const OPERATIONS = {
  dateAndTime: soapBody('<tds:GetSystemDateAndTime/>'),
  deviceInformation: soapBody('<tds:GetDeviceInformation/>'),
  services: soapBody(
    '<tds:GetServices><tds:IncludeCapability>false</tds:IncludeCapability></tds:GetServices>',
  ),
  capabilities: soapBody('<tds:GetCapabilities><tds:Category>All</tds:Category></tds:GetCapabilities>'),
};

export interface SoapAnswer {
  status: number;
  xml: string;
}

/**
 * Whether an ONVIF device service answers at the target, and what it says without a login, asking through
 * `ask` (one SOAP POST to the target's device service; `first` is true for the first request). Null when
 * the port does not answer SOAP.
 */
export async function identifyOnvifBy(
  target: { host: string; port: number; path: string },
  ask: (body: string, first: boolean) => Promise<SoapAnswer | null>,
): Promise<OnvifFinding | null> {
  const first = await ask(OPERATIONS.dateAndTime, true);
  if (!first || !isSoap(first)) return null;
  let needsCredentials = refusedLogin(first) ? true : null;

  const [information, media] = await Promise.all([
    ask(OPERATIONS.deviceInformation, false),
    (async () => {
      const services = await ask(OPERATIONS.services, false);
      if (services && refusedLogin(services)) needsCredentials = true;
      if (services && isSoap(services) && hasElement(services.xml, 'GetServicesResponse')) {
        // Each service's Namespace element (the envelope may declare the media namespace all the same).
        return elements(services.xml, 'Namespace').some((ns) => /\/ver[12]0\/media\/wsdl/.test(ns));
      }
      const capabilities = await ask(OPERATIONS.capabilities, false);
      if (capabilities && refusedLogin(capabilities)) needsCredentials = true;
      if (capabilities && isSoap(capabilities) && hasElement(capabilities.xml, 'GetCapabilitiesResponse')) {
        return hasElement(capabilities.xml, 'Media');
      }
      return null;
    })(),
  ]);
  if (information && refusedLogin(information)) needsCredentials = true;
  const answered =
    information && isSoap(information) && hasElement(information.xml, 'GetDeviceInformationResponse');
  return {
    kind: 'onvif',
    address: target.host,
    port: target.port,
    xaddr: `http://${target.host}${target.port === 80 ? '' : `:${target.port}`}${target.path}`,
    manufacturer: answered ? elementText(information.xml, 'Manufacturer') : null,
    model: answered ? elementText(information.xml, 'Model') : null,
    needsCredentials,
    media,
  };
}

export function isSoap(answer: SoapAnswer): boolean {
  return (
    hasElement(answer.xml, 'Envelope') &&
    /www\.w3\.org\/2003\/05\/soap-envelope|schemas\.xmlsoap\.org\/soap\/envelope/.test(answer.xml)
  );
}

/** A NotAuthorized fault (or an HTTP 401 on a SOAP service). */
export function refusedLogin(answer: SoapAnswer): boolean {
  if (answer.status === 401) return true;
  return (
    hasElement(answer.xml, 'Fault') &&
    /NotAuthori[sz]ed|not authori[sz]ed|unauthori[sz]ed|FailedAuthentication/i.test(answer.xml)
  );
}

/** What an RTSP port's answers say: OPTIONS, then (unless it was a 401) DESCRIBE of the root; null: no RTSP. */
export function rtspFinding(
  host: string,
  port: number,
  options: number | null,
  described: number | null,
): RtspFinding | null {
  if (options === null) return null;
  const needsCredentials =
    options === 401 || described === 401 ? true : described !== null && described < 300 ? false : null;
  return { kind: 'rtsp', address: host, port, url: `rtsp://${host}:${port}`, needsCredentials };
}
