import type { ConfiguredCamera } from '@homesitter/cameras';
import { streamConnectionInputSchema } from '@homesitter/contract';
import { z } from 'zod';
import type { ConfigDir } from '../config-dir.js';

const FILE = 'cameras.json';

const video = z.object({ codec: z.string(), width: z.number(), height: z.number() });
const login = { username: z.string().optional(), password: z.string().optional() };

/** What configuration learnt about a camera (@homesitter/cameras' `ConfiguredCamera`), as stored. */
const configuredCameraSchema = z.object({
  main: z.object({ url: z.string(), ...login, video, audioCodec: z.string().nullable() }),
  sub: z.object({ url: z.string(), ...login, video }).nullable(),
  snapshotUri: z.string().nullable(),
  device: z
    .object({
      manufacturer: z.string().nullable(),
      model: z.string().nullable(),
      firmware: z.string().nullable(),
    })
    .nullable(),
  motionSource: z.enum(['onvif', 'frames']),
  onvif: z
    .object({ host: z.string(), port: z.number(), username: z.string(), password: z.string() })
    .nullable(),
}) satisfies z.ZodType<ConfiguredCamera>;

/**
 * A camera this helper bridges. Its login stays here, in a file only the OS user can read: it never leaves
 * the home. `private` and `motion_sensitivity` are the server's last word, so recording goes on (and
 * private mode is honoured) while the server is out of reach; null `private` means the server has not
 * spoken about the camera yet, and nothing is recorded until it has.
 */
const bridgedCameraSchema = z.object({
  camera_uuid: z.string().min(1),
  /** The account it belongs to: another account signed in to this helper does not bridge it. */
  owner_uid: z.string(),
  name: z.string(),
  connection: streamConnectionInputSchema,
  camera: configuredCameraSchema,
  private: z.boolean().nullable(),
  motion_sensitivity: z.number().int(),
  configured_at: z.string(),
});
export type BridgedCameraRecord = z.infer<typeof bridgedCameraSchema>;

const fileSchema = z.object({ version: z.literal(1), cameras: z.array(bridgedCameraSchema) });

/** `cameras.json` (0600): the bridged cameras, kept in memory and written through atomically. */
export interface CameraStore {
  load(): Promise<void>;
  all(): readonly BridgedCameraRecord[];
  get(cameraUuid: string): BridgedCameraRecord | undefined;
  put(record: BridgedCameraRecord): Promise<void>;
  update(
    cameraUuid: string,
    patch: Partial<Pick<BridgedCameraRecord, 'name' | 'private' | 'motion_sensitivity'>>,
  ): Promise<void>;
  remove(cameraUuid: string): Promise<void>;
}

export function createCameraStore(dir: ConfigDir): CameraStore {
  let cameras = new Map<string, BridgedCameraRecord>();
  let writing: Promise<void> = Promise.resolve();

  /** Writes one after another, each with the state at its turn, so the file ends as the memory is. */
  function persist(): Promise<void> {
    const next = writing.then(() =>
      dir.writePrivate(FILE, `${JSON.stringify({ version: 1, cameras: [...cameras.values()] }, null, 2)}\n`),
    );
    writing = next.catch(() => undefined);
    return next;
  }

  return {
    async load() {
      const file = await dir.readJson(FILE, fileSchema);
      cameras = new Map((file?.cameras ?? []).map((c) => [c.camera_uuid, c]));
    },
    all: () => [...cameras.values()],
    get: (uuid) => cameras.get(uuid),
    put(record) {
      cameras.set(record.camera_uuid, record);
      return persist();
    },
    async update(uuid, patch) {
      const record = cameras.get(uuid);
      if (!record) return;
      const next = { ...record, ...patch };
      if (JSON.stringify(next) === JSON.stringify(record)) return;
      cameras.set(uuid, next);
      await persist();
    },
    async remove(uuid) {
      if (!cameras.delete(uuid)) return;
      await persist();
    },
  };
}
