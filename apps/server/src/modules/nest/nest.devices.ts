import type { NestDeviceKind } from '@homesitter/contract';
import type { SdmDevice } from './nest.google.js';

/** What a Nest device becomes in Homesitter. */
export interface NestDeviceInfo {
  /** `enterprises/{project}/devices/{id}` */
  deviceName: string;
  kind: NestDeviceKind;
  /** The camera name wanted: customName, else room and type ("Front Door Doorbell"). */
  name: string;
  protocols: ('RTSP' | 'WEB_RTC')[];
  traits: string[];
}

const KIND_BY_TYPE: Record<string, NestDeviceKind> = {
  'sdm.devices.types.CAMERA': 'camera',
  'sdm.devices.types.DOORBELL': 'doorbell',
  'sdm.devices.types.DISPLAY': 'display',
};
const KIND_WORD: Record<NestDeviceKind, string> = {
  camera: 'Camera',
  doorbell: 'Doorbell',
  display: 'Display',
};
const TRAIT = 'sdm.devices.traits.';

/**
 * The device as a Homesitter camera, or null when it has no camera (thermostats, displays without one):
 * only devices with a live stream or event images are cameras.
 */
export function describeNestDevice(device: SdmDevice): NestDeviceInfo | null {
  const kind = KIND_BY_TYPE[device.type];
  const traits = Object.keys(device.traits ?? {});
  const live = device.traits?.[`${TRAIT}CameraLiveStream`];
  if (!kind || (!live && !traits.includes(`${TRAIT}CameraEventImage`))) return null;
  const supported = Array.isArray(live?.supportedProtocols) ? (live.supportedProtocols as unknown[]) : [];
  const protocols = (['RTSP', 'WEB_RTC'] as const).filter((p) => supported.includes(p));
  const customName = device.traits?.[`${TRAIT}Info`]?.customName;
  const room = device.parentRelations?.find((r) => r.displayName?.trim())?.displayName?.trim();
  const name =
    typeof customName === 'string' && customName.trim()
      ? customName.trim()
      : [room, KIND_WORD[kind]].filter(Boolean).join(' ');
  return {
    deviceName: device.name,
    kind,
    name: name || `Nest ${KIND_WORD[kind]}`,
    protocols: [...protocols],
    traits: traits.map((t) => t.replace(TRAIT, '')),
  };
}
