/**
 * An ONVIF (Profile S) device for tests: the device, media and events services over SOAP 1.2 on 127.0.0.1
 * (or another loopback address), with WS-Security UsernameToken logins, two H.264 profiles whose stream URIs
 * point at the test RTSP server, a snapshot, and PullPoint motion events driven by `setMotion`. It answers
 * what the `onvif` npm client asks while connecting and reading a camera; anything else is a SOAP fault, as
 * on a strict device.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { testMedia } from './media.js';

export interface SimulatedProfile {
  token: string;
  name: string;
  /** ONVIF's encoding name: `H264`, `H265`, `JPEG`... */
  encoding: string;
  width: number;
  height: number;
  fps?: number;
  /** Appended to `rtspBase` for the stream URI, e.g. `/main`. */
  path: string;
}

export interface OnvifSimulatorOptions {
  username: string;
  password: string;
  /** Where the profiles' streams are, e.g. `rtsp://127.0.0.1:PORT` (the test RTSP server). */
  rtspBase: string;
  /** False: no events service is offered at all. Default true. */
  motionEvents?: boolean;
  manufacturer?: string;
  model?: string;
  firmware?: string;
  serial?: string;
  /** Default: `main` 1280x720 H264 at `/main` and `sub` 640x360 H264 at `/sub`. */
  profiles?: SimulatedProfile[];
  /** HTTP status of a NotAuthorized fault: 400 as the ONVIF core spec says for WS-Security, or 401. */
  authFailureStatus?: 400 | 401;
  /** Accept connections but never answer (a device that hangs). */
  neverAnswer?: boolean;
  /** The JPEG served at the snapshot URI; default the test media's empty-driveway.jpg. */
  snapshot?: Buffer;
  /** The address to listen on (any of 127.0.0.0/8 on Linux); default 127.0.0.1. */
  host?: string;
  /** The port to listen on; default a free one. */
  port?: number;
  /** False: no media service (a device with nothing to stream, e.g. an access controller). Default true. */
  mediaService?: boolean;
  /**
   * Operations answered without a login, as ONVIF's pre-authentication access class allows; default only
   * `GetSystemDateAndTime` (a strict device). E.g. `['GetSystemDateAndTime', 'GetServices']`.
   */
  openOperations?: string[];
}

export interface SimulatorRequest {
  /** The HTTP path, e.g. `/onvif/media_service`. */
  path: string;
  /** The SOAP body's first element, e.g. `GetProfiles` (`GET` for the snapshot). */
  operation: string;
  /** Whether it carried a valid login; null when it carried none. */
  authenticated: boolean | null;
}

export interface OnvifSimulator {
  /** `http://HOST:PORT/onvif/device_service` */
  url: string;
  host: string;
  port: number;
  /** Reports motion starting (true) or ending (false) to every PullPoint subscription. */
  setMotion(on: boolean): void;
  requests(): SimulatorRequest[];
  /** Live PullPoint subscriptions (not unsubscribed, not expired). */
  subscriptions(): number;
  /** Forgets every subscription, as a restarted camera does: their next request gets a fault. */
  dropSubscriptions(): void;
  close(): Promise<void>;
}

const NS = {
  s: 'http://www.w3.org/2003/05/soap-envelope',
  tds: 'http://www.onvif.org/ver10/device/wsdl',
  trt: 'http://www.onvif.org/ver10/media/wsdl',
  tev: 'http://www.onvif.org/ver10/events/wsdl',
  tt: 'http://www.onvif.org/ver10/schema',
  wsnt: 'http://docs.oasis-open.org/wsn/b-2',
  wsa5: 'http://www.w3.org/2005/08/addressing',
  wstop: 'http://docs.oasis-open.org/wsn/t-1',
  tns1: 'http://www.onvif.org/ver10/topics',
  ter: 'http://www.onvif.org/ver10/error',
};

const DEVICE_PATH = '/onvif/device_service';
const MEDIA_PATH = '/onvif/media_service';
const EVENTS_PATH = '/onvif/events_service';
const SUBSCRIPTION_PATH = '/onvif/subscription/';
const SNAPSHOT_PATH = '/onvif/snapshot.jpg';

const DEFAULT_PROFILES: SimulatedProfile[] = [
  { token: 'main', name: 'MainStream', encoding: 'H264', width: 1280, height: 720, fps: 10, path: '/main' },
  { token: 'sub', name: 'SubStream', encoding: 'H264', width: 640, height: 360, fps: 10, path: '/sub' },
];

interface Subscription {
  id: string;
  terminatesAt: number;
  queue: string[];
  /** A PullMessages waiting for news; answered early by `setMotion` or `Unsubscribe`. */
  waiting: (() => void) | null;
}

class SoapFault extends Error {
  constructor(
    readonly status: number,
    readonly code: 'Sender' | 'Receiver',
    readonly subcode: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The text of the first element with that local name (any prefix), or undefined. */
function element(xml: string, name: string): string | undefined {
  return new RegExp(`<(?:[\\w-]+:)?${name}(?:\\s[^>]*)?>([^<]*)</(?:[\\w-]+:)?${name}>`)
    .exec(xml)?.[1]
    ?.trim();
}

/** ISO 8601 durations as ONVIF uses them (`PT1M`, `PT10S`, `PT0.5S`) in ms; undefined when not one. */
function durationMs(text: string | undefined): number | undefined {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/.exec(text ?? '');
  if (!match) return undefined;
  const [, d = '0', h = '0', m = '0', s = '0'] = match;
  return (((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60 + Number(s)) * 1000;
}

/** A termination time given as a duration (`PT2M`) or an absolute time; default one minute. */
function terminationFrom(text: string | undefined, now: number): number {
  const duration = durationMs(text);
  if (duration !== undefined) return now + duration;
  const absolute = text ? Date.parse(text) : NaN;
  return Number.isNaN(absolute) ? now + 60_000 : absolute;
}

function envelope(body: string): string {
  const xmlns = Object.entries(NS)
    .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
    .join(' ');
  return `<?xml version="1.0" encoding="UTF-8"?><s:Envelope ${xmlns}><s:Body>${body}</s:Body></s:Envelope>`;
}

export async function startOnvifSimulator(options: OnvifSimulatorOptions): Promise<OnvifSimulator> {
  const profiles = options.profiles ?? DEFAULT_PROFILES;
  const motionEvents = options.motionEvents ?? true;
  const mediaService = options.mediaService ?? true;
  const openOperations = new Set(options.openOperations ?? ['GetSystemDateAndTime']);
  const host = options.host ?? '127.0.0.1';
  const log: SimulatorRequest[] = [];
  const subscriptions = new Map<string, Subscription>();
  const sockets = new Set<Socket>();
  let motion = false;
  let base = '';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (options.neverAnswer) return;
      respond(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function respond(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path === SNAPSHOT_PATH) {
      log.push({ path, operation: 'GET', authenticated: null });
      const jpeg = options.snapshot ?? defaultSnapshot();
      res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': jpeg.length }).end(jpeg);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const operation = /<(?:[\w-]+:)?Body[^>]*>\s*<(?:[\w-]+:)?([\w]+)/.exec(body)?.[1] ?? '';
    const authenticated = checkLogin(body);
    log.push({ path, operation, authenticated });
    let status = 200;
    let answer: string;
    try {
      if (!openOperations.has(operation) && authenticated !== true) {
        throw new SoapFault(
          options.authFailureStatus ?? 400,
          'Sender',
          'ter:NotAuthorized',
          'Sender not Authorized',
        );
      }
      answer = await operate(path, operation, body);
    } catch (err) {
      if (!(err instanceof SoapFault)) throw err;
      status = err.status;
      answer =
        `<s:Fault><s:Code><s:Value>s:${err.code}</s:Value><s:Subcode><s:Value>${err.subcode}</s:Value>` +
        `</s:Subcode></s:Code><s:Reason><s:Text xml:lang="en">${err.reason}</s:Text></s:Reason></s:Fault>`;
    }
    if (res.destroyed) return;
    const xml = envelope(answer);
    res
      .writeHead(status, {
        'Content-Type': 'application/soap+xml; charset=utf-8',
        'Content-Length': Buffer.byteLength(xml),
      })
      .end(xml);
  }

  let snapshotCache: Buffer | undefined;
  function defaultSnapshot(): Buffer {
    snapshotCache ??= readFileSync(testMedia('empty-driveway.jpg'));
    return snapshotCache;
  }

  /** WS-Security UsernameToken: PasswordDigest = Base64(SHA1(nonce + created + password)), or PasswordText. */
  function checkLogin(body: string): boolean | null {
    const token = /<(?:[\w-]+:)?UsernameToken[\s>][\s\S]*?<\/(?:[\w-]+:)?UsernameToken>/.exec(body)?.[0];
    if (!token) return null;
    const username = element(token, 'Username');
    const password = element(token, 'Password') ?? '';
    if (username !== options.username) return false;
    if (/<(?:[\w-]+:)?Password[^>]*#PasswordText/.test(token)) return password === options.password;
    const nonce = Buffer.from(element(token, 'Nonce') ?? '', 'base64');
    const created = element(token, 'Created') ?? '';
    const digest = createHash('sha1')
      .update(Buffer.concat([nonce, Buffer.from(created), Buffer.from(options.password)]))
      .digest('base64');
    return digest === password;
  }

  function unsupported(): never {
    throw new SoapFault(400, 'Receiver', 'ter:ActionNotSupported', 'Optional Action Not Implemented');
  }

  async function operate(path: string, operation: string, body: string): Promise<string> {
    if (path === DEVICE_PATH) return deviceOperation(operation, body);
    if (path === MEDIA_PATH && mediaService) return mediaOperation(operation, body);
    if (path === EVENTS_PATH && motionEvents) return eventsOperation(operation);
    if (path.startsWith(SUBSCRIPTION_PATH) && motionEvents) {
      return subscriptionOperation(path.slice(SUBSCRIPTION_PATH.length), operation, body);
    }
    unsupported();
  }

  function deviceOperation(operation: string, body: string): string {
    const now = new Date();
    switch (operation) {
      case 'GetSystemDateAndTime':
        return (
          '<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime>' +
          '<tt:DateTimeType>NTP</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings>' +
          '<tt:TimeZone><tt:TZ>UTC0</tt:TZ></tt:TimeZone><tt:UTCDateTime>' +
          `<tt:Time><tt:Hour>${now.getUTCHours()}</tt:Hour><tt:Minute>${now.getUTCMinutes()}</tt:Minute>` +
          `<tt:Second>${now.getUTCSeconds()}</tt:Second></tt:Time>` +
          `<tt:Date><tt:Year>${now.getUTCFullYear()}</tt:Year><tt:Month>${now.getUTCMonth() + 1}</tt:Month>` +
          `<tt:Day>${now.getUTCDate()}</tt:Day></tt:Date>` +
          '</tt:UTCDateTime></tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>'
        );
      case 'GetCapabilities':
        return (
          '<tds:GetCapabilitiesResponse><tds:Capabilities>' +
          `<tt:Device><tt:XAddr>${base}${DEVICE_PATH}</tt:XAddr></tt:Device>` +
          (motionEvents
            ? `<tt:Events><tt:XAddr>${base}${EVENTS_PATH}</tt:XAddr>` +
              '<tt:WSSubscriptionPolicySupport>false</tt:WSSubscriptionPolicySupport>' +
              '<tt:WSPullPointSupport>true</tt:WSPullPointSupport>' +
              '<tt:WSPausableSubscriptionManagerInterfaceSupport>false</tt:WSPausableSubscriptionManagerInterfaceSupport>' +
              '</tt:Events>'
            : '') +
          (mediaService
            ? `<tt:Media><tt:XAddr>${base}${MEDIA_PATH}</tt:XAddr><tt:StreamingCapabilities>` +
              '<tt:RTPMulticast>false</tt:RTPMulticast><tt:RTP_TCP>true</tt:RTP_TCP>' +
              '<tt:RTP_RTSP_TCP>true</tt:RTP_RTSP_TCP></tt:StreamingCapabilities></tt:Media>'
            : '') +
          '</tds:Capabilities></tds:GetCapabilitiesResponse>'
        );
      case 'GetServices': {
        const withCapabilities = element(body, 'IncludeCapability') === 'true';
        const service = (namespace: string, path: string, capabilities: string) =>
          `<tds:Service><tds:Namespace>${namespace}</tds:Namespace><tds:XAddr>${base}${path}</tds:XAddr>` +
          (withCapabilities ? `<tds:Capabilities>${capabilities}</tds:Capabilities>` : '') +
          '<tds:Version><tt:Major>2</tt:Major><tt:Minor>60</tt:Minor></tds:Version></tds:Service>';
        return (
          '<tds:GetServicesResponse>' +
          service(
            NS.tds,
            DEVICE_PATH,
            '<tds:Capabilities><tds:Network/><tds:Security/><tds:System/></tds:Capabilities>',
          ) +
          (mediaService
            ? service(
                NS.trt,
                MEDIA_PATH,
                '<trt:Capabilities SnapshotUri="true"><trt:StreamingCapabilities RTP_TCP="true" RTP_RTSP_TCP="true"/></trt:Capabilities>',
              )
            : '') +
          (motionEvents
            ? service(
                NS.tev,
                EVENTS_PATH,
                '<tev:Capabilities WSSubscriptionPolicySupport="false" WSPullPointSupport="true" WSPausableSubscriptionManagerInterfaceSupport="false"/>',
              )
            : '') +
          '</tds:GetServicesResponse>'
        );
      }
      case 'GetDeviceInformation':
        return (
          '<tds:GetDeviceInformationResponse>' +
          `<tds:Manufacturer>${options.manufacturer ?? 'Homesitter'}</tds:Manufacturer>` +
          `<tds:Model>${options.model ?? 'Simulated Camera'}</tds:Model>` +
          `<tds:FirmwareVersion>${options.firmware ?? 'V1.0.0 build 20260101'}</tds:FirmwareVersion>` +
          `<tds:SerialNumber>${options.serial ?? 'SIM-0001'}</tds:SerialNumber>` +
          '<tds:HardwareId>sim</tds:HardwareId></tds:GetDeviceInformationResponse>'
        );
      case 'GetScopes':
        return (
          '<tds:GetScopesResponse>' +
          [
            'onvif://www.onvif.org/Profile/Streaming',
            'onvif://www.onvif.org/type/video_encoder',
            `onvif://www.onvif.org/name/${encodeURIComponent(options.model ?? 'Simulated Camera')}`,
            'onvif://www.onvif.org/hardware/sim',
          ]
            .map(
              (item) =>
                `<tds:Scopes><tt:ScopeDef>Fixed</tt:ScopeDef><tt:ScopeItem>${item}</tt:ScopeItem></tds:Scopes>`,
            )
            .join('') +
          '</tds:GetScopesResponse>'
        );
      default:
        unsupported();
    }
  }

  function profileFor(body: string): SimulatedProfile {
    const token = element(body, 'ProfileToken');
    const profile = profiles.find((p) => p.token === token);
    if (!profile) throw new SoapFault(400, 'Sender', 'ter:NoProfile', 'The requested profile does not exist');
    return profile;
  }

  function mediaOperation(operation: string, body: string): string {
    const largest = profiles.reduce(
      (a, b) => (b.width * b.height > a.width * a.height ? b : a),
      profiles[0]!,
    );
    switch (operation) {
      case 'GetProfiles':
        return `<trt:GetProfilesResponse>${profiles.map(profileXml).join('')}</trt:GetProfilesResponse>`;
      case 'GetVideoSources':
        return (
          '<trt:GetVideoSourcesResponse><trt:VideoSources token="vs1">' +
          `<tt:Framerate>${largest.fps ?? 10}</tt:Framerate>` +
          `<tt:Resolution><tt:Width>${largest.width}</tt:Width><tt:Height>${largest.height}</tt:Height></tt:Resolution>` +
          '</trt:VideoSources></trt:GetVideoSourcesResponse>'
        );
      case 'GetStreamUri': {
        const profile = profileFor(body);
        return (
          '<trt:GetStreamUriResponse><trt:MediaUri>' +
          `<tt:Uri>${options.rtspBase.replace(/\/+$/, '')}${profile.path}</tt:Uri>` +
          '<tt:InvalidAfterConnect>false</tt:InvalidAfterConnect>' +
          '<tt:InvalidAfterReboot>false</tt:InvalidAfterReboot><tt:Timeout>PT60S</tt:Timeout>' +
          '</trt:MediaUri></trt:GetStreamUriResponse>'
        );
      }
      case 'GetSnapshotUri':
        profileFor(body);
        return (
          '<trt:GetSnapshotUriResponse><trt:MediaUri>' +
          `<tt:Uri>${base}${SNAPSHOT_PATH}</tt:Uri><tt:InvalidAfterConnect>false</tt:InvalidAfterConnect>` +
          '<tt:InvalidAfterReboot>false</tt:InvalidAfterReboot><tt:Timeout>PT60S</tt:Timeout>' +
          '</trt:MediaUri></trt:GetSnapshotUriResponse>'
        );
      default:
        unsupported();
    }
  }

  function profileXml(profile: SimulatedProfile, index: number): string {
    const fps = profile.fps ?? 10;
    const codec =
      profile.encoding === 'H264'
        ? `<tt:H264><tt:GovLength>${fps}</tt:GovLength><tt:H264Profile>Main</tt:H264Profile></tt:H264>`
        : '';
    return (
      `<trt:Profiles token="${profile.token}" fixed="true"><tt:Name>${profile.name}</tt:Name>` +
      '<tt:VideoSourceConfiguration token="vsc1"><tt:Name>VideoSourceConfig</tt:Name>' +
      `<tt:UseCount>${profiles.length}</tt:UseCount><tt:SourceToken>vs1</tt:SourceToken>` +
      '<tt:Bounds x="0" y="0" width="1280" height="720"/></tt:VideoSourceConfiguration>' +
      `<tt:VideoEncoderConfiguration token="vec${index + 1}"><tt:Name>${profile.name}</tt:Name>` +
      `<tt:UseCount>1</tt:UseCount><tt:Encoding>${profile.encoding}</tt:Encoding>` +
      `<tt:Resolution><tt:Width>${profile.width}</tt:Width><tt:Height>${profile.height}</tt:Height></tt:Resolution>` +
      '<tt:Quality>4</tt:Quality><tt:RateControl>' +
      `<tt:FrameRateLimit>${fps}</tt:FrameRateLimit><tt:EncodingInterval>1</tt:EncodingInterval>` +
      '<tt:BitrateLimit>2048</tt:BitrateLimit></tt:RateControl>' +
      codec +
      '<tt:Multicast><tt:Address><tt:Type>IPv4</tt:Type><tt:IPv4Address>0.0.0.0</tt:IPv4Address></tt:Address>' +
      '<tt:Port>0</tt:Port><tt:TTL>0</tt:TTL><tt:AutoStart>false</tt:AutoStart></tt:Multicast>' +
      '<tt:SessionTimeout>PT60S</tt:SessionTimeout></tt:VideoEncoderConfiguration></trt:Profiles>'
    );
  }

  function eventsOperation(operation: string): string {
    switch (operation) {
      case 'GetEventProperties':
        return (
          '<tev:GetEventPropertiesResponse>' +
          '<tev:TopicNamespaceLocation>http://www.onvif.org/onvif/ver10/topics/topicns.xml</tev:TopicNamespaceLocation>' +
          '<wsnt:FixedTopicSet>true</wsnt:FixedTopicSet><wstop:TopicSet>' +
          '<tns1:RuleEngine wstop:topic="true"><CellMotionDetector wstop:topic="true"><Motion wstop:topic="true">' +
          '<tt:MessageDescription IsProperty="true"><tt:Source>' +
          '<tt:SimpleItemDescription Name="VideoSourceConfigurationToken" Type="tt:ReferenceToken"/>' +
          '<tt:SimpleItemDescription Name="VideoAnalyticsConfigurationToken" Type="tt:ReferenceToken"/>' +
          '<tt:SimpleItemDescription Name="Rule" Type="xs:string"/></tt:Source>' +
          '<tt:Data><tt:SimpleItemDescription Name="IsMotion" Type="xs:boolean"/></tt:Data>' +
          '</tt:MessageDescription></Motion></CellMotionDetector></tns1:RuleEngine></wstop:TopicSet>' +
          '<wsnt:TopicExpressionDialect>http://www.onvif.org/ver10/tev/topicExpression/ConcreteSet</wsnt:TopicExpressionDialect>' +
          '<tev:MessageContentFilterDialect>http://www.onvif.org/ver10/tev/messageContentFilter/ItemFilter</tev:MessageContentFilterDialect>' +
          '<tev:MessageContentSchemaLocation>http://www.onvif.org/onvif/ver10/schema/onvif.xsd</tev:MessageContentSchemaLocation>' +
          '</tev:GetEventPropertiesResponse>'
        );
      case 'CreatePullPointSubscription': {
        // A body's InitialTerminationTime is ignored on purpose: the device picks, as many real ones do.
        const now = Date.now();
        const subscription: Subscription = {
          id: randomBytes(6).toString('hex'),
          terminatesAt: now + 120_000,
          queue: [notification(motion, 'Initialized')],
          waiting: null,
        };
        subscriptions.set(subscription.id, subscription);
        return (
          '<tev:CreatePullPointSubscriptionResponse><tev:SubscriptionReference>' +
          `<wsa5:Address>${base}${SUBSCRIPTION_PATH}${subscription.id}</wsa5:Address>` +
          '</tev:SubscriptionReference>' +
          `<wsnt:CurrentTime>${new Date(now).toISOString()}</wsnt:CurrentTime>` +
          `<wsnt:TerminationTime>${new Date(subscription.terminatesAt).toISOString()}</wsnt:TerminationTime>` +
          '</tev:CreatePullPointSubscriptionResponse>'
        );
      }
      default:
        unsupported();
    }
  }

  function live(id: string): Subscription {
    const subscription = subscriptions.get(id);
    if (subscription && subscription.terminatesAt <= Date.now()) {
      subscriptions.delete(id);
      subscription.waiting?.();
    }
    if (!subscription || !subscriptions.has(id)) {
      throw new SoapFault(400, 'Sender', 'wsrf-rw:ResourceUnknownFault', 'Unknown subscription');
    }
    return subscription;
  }

  async function subscriptionOperation(id: string, operation: string, body: string): Promise<string> {
    const subscription = live(id);
    switch (operation) {
      case 'PullMessages': {
        const timeout = Math.min(durationMs(element(body, 'Timeout')) ?? 10_000, 120_000);
        const limit = Number(element(body, 'MessageLimit') ?? 10) || 10;
        if (subscription.queue.length === 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, timeout);
            function done(): void {
              clearTimeout(timer);
              subscription.waiting = null;
              resolve();
            }
            subscription.waiting?.();
            subscription.waiting = done;
          });
        }
        const messages = subscription.queue.splice(0, limit);
        const now = Date.now();
        return (
          '<tev:PullMessagesResponse>' +
          `<tev:CurrentTime>${new Date(now).toISOString()}</tev:CurrentTime>` +
          `<tev:TerminationTime>${new Date(subscription.terminatesAt).toISOString()}</tev:TerminationTime>` +
          messages.join('') +
          '</tev:PullMessagesResponse>'
        );
      }
      case 'Renew': {
        const now = Date.now();
        subscription.terminatesAt = terminationFrom(element(body, 'TerminationTime'), now);
        return (
          '<wsnt:RenewResponse>' +
          `<wsnt:TerminationTime>${new Date(subscription.terminatesAt).toISOString()}</wsnt:TerminationTime>` +
          `<wsnt:CurrentTime>${new Date(now).toISOString()}</wsnt:CurrentTime>` +
          '</wsnt:RenewResponse>'
        );
      }
      case 'Unsubscribe':
        subscriptions.delete(id);
        subscription.waiting?.();
        return '<wsnt:UnsubscribeResponse/>';
      default:
        unsupported();
    }
  }

  function notification(isMotion: boolean, operation: 'Initialized' | 'Changed'): string {
    return (
      '<wsnt:NotificationMessage>' +
      '<wsnt:Topic Dialect="http://www.onvif.org/ver10/tev/topicExpression/ConcreteSet">' +
      'tns1:RuleEngine/CellMotionDetector/Motion</wsnt:Topic>' +
      `<wsnt:Message><tt:Message UtcTime="${new Date().toISOString()}" PropertyOperation="${operation}">` +
      '<tt:Source><tt:SimpleItem Name="VideoSourceConfigurationToken" Value="vsc1"/>' +
      '<tt:SimpleItem Name="VideoAnalyticsConfigurationToken" Value="vac1"/>' +
      '<tt:SimpleItem Name="Rule" Value="MyMotionDetectorRule"/></tt:Source>' +
      `<tt:Data><tt:SimpleItem Name="IsMotion" Value="${isMotion}"/></tt:Data>` +
      '</tt:Message></wsnt:Message></wsnt:NotificationMessage>'
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://${host}:${port}`;

  return {
    url: `${base}${DEVICE_PATH}`,
    host,
    port,
    setMotion(on) {
      motion = on;
      for (const subscription of subscriptions.values()) {
        subscription.queue.push(notification(on, 'Changed'));
        subscription.waiting?.();
      }
    },
    requests: () => [...log],
    subscriptions: () => [...subscriptions.values()].filter((s) => s.terminatesAt > Date.now()).length,
    dropSubscriptions() {
      const dropped = [...subscriptions.values()];
      subscriptions.clear();
      for (const subscription of dropped) subscription.waiting?.();
    },
    async close() {
      for (const subscription of subscriptions.values()) subscription.waiting?.();
      subscriptions.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
