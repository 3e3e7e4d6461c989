import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ChatMessage, MemoryBody, MemoryCategory } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { VisionEngine } from '../../adapters/vision/vision.js';
import type { Logger } from '../../platform/logger.js';
import { openImage } from '../../platform/sharp.js';
import type { AgentMessageInput } from '../chat/chat.service.js';
import { userMediaPrefix } from '../media/media.module.js';
import { faceDistance, matchFace, type FaceExample } from '../recognition/recognition.module.js';
import {
  dayKey,
  groupFaces,
  isRecurring,
  offerText,
  parseOfferAnswer,
  RECURRING_WINDOW_DAYS,
  repliesFor,
  wasOffered,
  type FaceGroup,
  type UnknownFace,
} from './recurring-faces.js';
import type { FaceActivity, FaceOwner, RecurringFacesRepository } from './recurring-faces.repository.js';

/** The frames the analysis looked at for an activity (analysis/activity-frames.ts: the same frames, so the same boxes). */
export interface FaceFrames {
  load(activity: FaceActivity): Promise<Buffer[]>;
}

export interface RecurringFacesDeps {
  repo: RecurringFacesRepository;
  vision: Pick<VisionEngine, 'embedFaces'>;
  frames: FaceFrames;
  storage: Pick<ObjectStorage, 'put' | 'get' | 'delete' | 'signedUrl'>;
  chat: { postAgentMessage(userId: string, message: AgentMessageInput): Promise<ChatMessage> };
  /** The memories service, by the owner's token subject: naming a group creates a people memory with the photos. */
  memories: {
    create(subject: string, category: MemoryCategory, body: MemoryBody): Promise<{ memory_uuid: string }>;
    addImage(subject: string, category: MemoryCategory, id: string, filePath: string): Promise<unknown>;
  };
  /** The examples of the user's people memories: a face that matches one now is not unknown any more. */
  examples: { listForUser(userId: string): Promise<FaceExample[]> };
  /** Seconds a signed photo URL lives (`MEDIA_URL_TTL`); the chat's history signs them afresh. */
  urlTtlSeconds: number;
  /** Offers (and their photos) go this many days after the group was last seen (`RETENTION_DAYS`). */
  retentionDays: number;
  /** Where a photo is written for the memories service to read (it takes files, like an upload). */
  spoolDir: string;
  log: Logger;
  now?: () => Date;
}

/** The hour of the owner's day at which groups are offered: the evening, when people look at the day. */
export const OFFER_HOUR = 18;
/** Photos shown with an offer (and given to the memory): the largest, sharpest faces, one per activity. */
export const MAX_PHOTOS = 3;
/** Faces narrower than this make poor memory photos; they are used only when the group has no larger one. */
const MIN_PHOTO_FACE_PX = 48;
/** Faces cropped to choose them from. */
const CANDIDATES = 5;
/** A face found again in a frame is the stored one when this near (analysis/frames-merge.ts SAME_PERSON_DISTANCE). */
const SAME_FACE_DISTANCE = 0.5;
const DAY_MS = 24 * 3600_000;

export type OfferOutcome = { handled: false } | { handled: true; reply: string };

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function localHour(at: Date, timezone: string | null): number {
  try {
    return Number(
      new Intl.DateTimeFormat('en-GB', {
        hour: '2-digit',
        hourCycle: 'h23',
        timeZone: timezone ?? 'UTC',
      }).format(at),
    );
  } catch {
    return at.getUTCHours();
  }
}

/**
 * Faces that keep coming back (docs/vision.md "Recurring faces"): once a day, in the owner's evening, the
 * unknown faces of the last week are grouped by person; a group seen on several days is offered once in the
 * chat with its best photos; a reply naming it makes the people memory with those photos (its faces are
 * learnt by `recognition.learn-faces` as for any photo), "no" dismisses it. Nothing is offered or made without
 * facial recognition or in amnesia mode.
 */
export function createRecurringFacesService(deps: RecurringFacesDeps) {
  const { repo, storage, log } = deps;
  const now = deps.now ?? (() => new Date());

  /** A square crop around the face (with its hair and chin), at most 400 px, and how sharp it is. */
  async function crop(frame: Buffer, box: UnknownFace['box']) {
    // Boxes are in pixels of the frame turned by its EXIF orientation (docs/vision.md), so the crop is too.
    const meta = await (await openImage(frame)).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const width = (turned ? meta.height : meta.width) ?? 0;
    const height = (turned ? meta.width : meta.height) ?? 0;
    const [x, y, w, h] = box;
    const side = Math.round(Math.max(w, h) * 1.8);
    const left = Math.max(0, Math.round(x + w / 2 - side / 2));
    const top = Math.max(0, Math.round(y + h / 2 - side / 2));
    const cw = Math.min(side, width - left);
    const ch = Math.min(side, height - top);
    if (cw < 16 || ch < 16) return undefined;
    const cut = await (
      await openImage(frame)
    )
      .rotate()
      .extract({ left, top, width: cw, height: ch })
      .resize({ width: 400, height: 400, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 90 })
      .toBuffer();
    const { sharpness } = await (await openImage(cut)).stats();
    return { jpeg: cut, sharpness };
  }

  /** The face's photo from the frame it was seen in (with several frames, the one where it is found again). */
  async function photoOf(face: UnknownFace, activity: FaceActivity) {
    const frames = await deps.frames.load(activity);
    if (frames.length === 1) return crop(frames[0]!, face.box);
    let best: { jpeg: Buffer; sharpness: number; d: number } | undefined;
    for (const frame of frames) {
      const cut = await crop(frame, face.box).catch(() => undefined);
      if (!cut) continue;
      const found = await deps.vision.embedFaces(cut.jpeg).catch(() => []);
      const d = Math.min(Infinity, ...found.map((f) => faceDistance(f.descriptor, face.descriptor)));
      if (d < SAME_FACE_DISTANCE && (!best || d < best.d)) best = { ...cut, d };
    }
    return best;
  }

  /** The group's best photos: its largest faces (one per activity), ranked by size and sharpness. */
  async function bestPhotos(userId: string, group: FaceGroup): Promise<Buffer[]> {
    const area = (f: UnknownFace) => f.box[2] * f.box[3];
    const perActivity = new Map<string, UnknownFace>();
    const large = group.faces.filter((f) => f.box[2] >= MIN_PHOTO_FACE_PX);
    for (const f of [...(large.length > 0 ? large : group.faces)].sort((a, b) => area(b) - area(a)))
      if (!perActivity.has(f.activityId)) perActivity.set(f.activityId, f);
    const candidates = [...perActivity.values()].slice(0, CANDIDATES);
    const rows = new Map(
      (
        await repo.activities(
          userId,
          candidates.map((f) => f.activityId),
        )
      ).map((a) => [a.id, a]),
    );
    const photos: { jpeg: Buffer; score: number }[] = [];
    for (const face of candidates) {
      const activity = rows.get(face.activityId);
      if (!activity) continue;
      try {
        const photo = await photoOf(face, activity);
        if (photo) photos.push({ jpeg: photo.jpeg, score: area(face) * (1 + photo.sharpness) });
      } catch (err) {
        log.warn({ err, activityId: face.activityId }, 'could not cut a face photo from an activity');
      }
    }
    return photos
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_PHOTOS)
      .map((p) => p.jpeg);
  }

  /** The groups of the owner's last week that kept coming back and were never offered. */
  async function newGroups(owner: FaceOwner, at: Date): Promise<FaceGroup[]> {
    const since = new Date(at.getTime() - RECURRING_WINDOW_DAYS * DAY_MS);
    const examples = await deps.examples.listForUser(owner.id);
    // Named since they were seen (a memory made, a correction): not unknown any more.
    const faces = (await repo.unknownFaces(owner.id, since)).filter(
      (f) => examples.length === 0 || !matchFace(f.descriptor, examples),
    );
    const offered = await repo.offered(owner.id);
    return groupFaces(faces, owner.timezone)
      .filter((g) => isRecurring(g) && !wasOffered(g, offered))
      .sort((a, b) => b.visits - a.visits || b.days - a.days);
  }

  /** Offers the owner's most frequent new group, if any (one a day at most: the chat is not a list). */
  async function offerFor(userId: string): Promise<number> {
    const owner = await repo.owner(userId);
    if (!owner || !owner.isFacialRecognitionEnabled || owner.isAmnesiaModeEnabled) return 0;
    const at = now();
    for (const group of await newGroups(owner, at)) {
      const photos = await bestPhotos(userId, group);
      if (photos.length === 0) {
        log.info({ userId, faces: group.faces.length }, 'a recurring face has no usable photo yet');
        continue;
      }
      const id = randomUUID();
      const messageId = randomUUID();
      const photoKeys = photos.map((_, i) => `${userMediaPrefix(userId)}/recurring-faces/${id}/${i + 1}.jpg`);
      for (const [i, key] of photoKeys.entries()) await storage.put(key, photos[i]!, 'image/jpeg');
      // Remembered before it is said: a crash in between loses the offer rather than repeating it.
      await repo.insert({
        id,
        userId,
        messageId,
        centroid: group.centroid,
        faceIds: group.faces.map((f) => f.id),
        photoKeys,
        visits: group.visits,
        days: group.days,
        lastSeenAt: group.lastSeenAt,
      });
      const spanDays =
        Math.round(
          (Date.parse(dayKey(at, owner.timezone)) - Date.parse(dayKey(group.firstSeenAt, owner.timezone))) /
            DAY_MS,
        ) + 1;
      await deps.chat.postAgentMessage(userId, {
        message_uuid: messageId,
        text: offerText(group.visits, spanDays, owner.preferredLanguage),
        image_urls: await Promise.all(photoKeys.map((k) => storage.signedUrl(k, deps.urlTtlSeconds))),
      });
      log.info({ userId, visits: group.visits, days: group.days }, 'recurring face offered');
      return 1;
    }
    return 0;
  }

  /** Makes the people memory of a named group with its photos (their faces are learnt by the usual job). */
  async function remember(owner: FaceOwner, name: string, notes: string | null, photoKeys: string[]) {
    const memory = await deps.memories.create(owner.authSubject, 'people', { name, notes });
    await mkdir(deps.spoolDir, { recursive: true });
    let added = 0;
    for (const key of photoKeys) {
      const object = await storage.get(key);
      if (!object) continue;
      const path = join(deps.spoolDir, `${randomUUID()}.jpg`);
      try {
        await writeFile(path, await readAll(object.body));
        await deps.memories.addImage(owner.authSubject, 'people', memory.memory_uuid, path);
        added++;
      } catch (err) {
        log.warn({ err, memoryId: memory.memory_uuid }, 'a recurring face photo could not join the memory');
      } finally {
        await rm(path, { force: true });
      }
    }
    return { memoryId: memory.memory_uuid, added };
  }

  /**
   * A reply to an offer: a name makes the people memory with the offer's photos, "no" / "I don't know"
   * dismisses it; either way it is never offered again. Anything else, or a reply to another message, is
   * not handled here.
   */
  async function answer(userId: string, replyToMessageId: string, text: string): Promise<OfferOutcome> {
    const offer = await repo.byMessage(userId, replyToMessageId);
    if (!offer || offer.status !== 'offered') return { handled: false };
    const parsed = parseOfferAnswer(text);
    const owner = await repo.owner(userId);
    if (!parsed || !owner) return { handled: false };
    const replies = repliesFor(parsed.language === 'de' ? 'de' : owner.preferredLanguage);
    if (parsed.kind === 'dismiss') {
      await repo.answer(userId, offer.id, { status: 'dismissed', at: now() });
      return { handled: true, reply: replies.dismissed() };
    }
    // Consent as for every memory the home sitter makes: none in amnesia mode, no faces without recognition.
    if (owner.isAmnesiaModeEnabled) return { handled: true, reply: replies.amnesia() };
    if (!owner.isFacialRecognitionEnabled) return { handled: true, reply: replies.recognitionOff() };
    if (await repo.personNamed(userId, parsed.name))
      return { handled: true, reply: replies.exists(parsed.name) };
    if (!(await repo.answer(userId, offer.id, { status: 'named', at: now() }))) return { handled: false };
    const { memoryId, added } = await remember(owner, parsed.name, parsed.notes, offer.photoKeys);
    await repo.setMemory(userId, offer.id, memoryId);
    return { handled: true, reply: replies.named(parsed.name, added) };
  }

  return {
    /** Offers the user's new recurring group now, whatever the hour (tests, the job for one user). */
    offerFor,

    /** The hourly job: every owner whose evening hour it is; and offers past retention are purged. */
    async run(at: Date = now()): Promise<number> {
      let offered = 0;
      const since = new Date(at.getTime() - RECURRING_WINDOW_DAYS * DAY_MS);
      for (const owner of await repo.ownersWithUnknownFaces(since)) {
        if (localHour(at, owner.timezone) !== OFFER_HOUR) continue;
        try {
          offered += await offerFor(owner.id);
        } catch (err) {
          log.error({ err, userId: owner.id }, 'recurring faces could not be offered');
        }
      }
      const purged = await repo.purgeGone(new Date(at.getTime() - deps.retentionDays * DAY_MS));
      for (const key of purged.flatMap((r) => r.photoKeys))
        await storage
          .delete(key)
          .catch((err: unknown) => log.warn({ err, key }, 'could not delete a face photo'));
      return offered;
    },

    answer,

    /**
     * The assistant's reply hook: an offer's answer first, else `fallback` (the alerts' corrections, "that's
     * Rose" on an alert).
     */
    answeringFirst(fallback: {
      applyChatCorrection(userId: string, replyTo: string, text: string): Promise<OfferOutcome>;
    }) {
      return {
        applyChatCorrection: async (userId: string, replyTo: string, text: string): Promise<OfferOutcome> => {
          const outcome = await answer(userId, replyTo, text);
          return outcome.handled ? outcome : fallback.applyChatCorrection(userId, replyTo, text);
        },
      };
    },
  };
}
export type RecurringFacesService = ReturnType<typeof createRecurringFacesService>;
