import {
  addCameraRequestSchema,
  associateAllMemoriesResponseSchema,
  cameraDetailSchema,
  cameraLiveSchema,
  cameraNameParamsSchema,
  cameraSchema,
  cameraSettingsPatchSchema,
  cameraSiteAssociationRequestSchema,
  cameraUploadCredentialsSchema,
  renameCameraRequestSchema,
  siteParamsSchema,
  siteRequestSchema,
  siteSchema,
  updateCameraRequestSchema,
  webrtcExtensionSchema,
  webrtcOfferRequestSchema,
  webrtcSessionParamsSchema,
  webrtcSessionSchema,
} from './cameras.js';
import { defineEndpoints } from './endpoint.js';
import { messageEnvelope, okEnvelope, successOnlySchema } from './envelope.js';
import { MESSAGES } from './messages.js';
import { apiRoutes } from './routes.runtime.js';
import { z } from 'zod';

const camera = okEnvelope(cameraSchema);
const site = okEnvelope(siteSchema);

/** docs/product.md §7 "Cameras" and "Sites". */
export const camerasEndpoints = defineEndpoints({
  listCameras: {
    ...apiRoutes.listCameras,
    summary: 'Cameras of the signed-in user (removed ones hidden), sorted by name; no camera logins',
    tags: ['cameras'],
    response: okEnvelope(z.array(cameraSchema)),
    failureMessage: MESSAGES.loadCamerasFailed,
  },
  addCamera: {
    ...apiRoutes.addCamera,
    summary: 'Add a camera; its name is unique per user (case-insensitive)',
    tags: ['cameras'],
    body: addCameraRequestSchema,
    response: camera,
    successStatus: 201,
  },
  getCamera: {
    ...apiRoutes.getCamera,
    summary: "One camera with its own login (the owner's detail view)",
    tags: ['cameras'],
    params: cameraNameParamsSchema,
    response: okEnvelope(cameraDetailSchema),
  },
  configureCamera: {
    ...apiRoutes.configureCamera,
    summary:
      'Configure a stream camera again (a failed one, or after its address changed): answers at once with ' +
      'status configuring; the result follows over realtime (CamerasChanged) and in the camera',
    tags: ['cameras'],
    params: cameraNameParamsSchema,
    response: camera,
    successStatus: 202,
  },
  getCameraLive: {
    ...apiRoutes.getCameraLive,
    summary:
      'Signed, expiring URLs of the live view (stream cameras) or the latest snapshot (upload cameras)',
    tags: ['cameras'],
    params: cameraNameParamsSchema,
    response: okEnvelope(cameraLiveSchema),
  },
  startCameraWebRtc: {
    ...apiRoutes.startCameraWebRtc,
    summary:
      "A Nest camera's WebRTC live view: the browser's offer goes to Google (GenerateWebRtcStream), its answer " +
      'comes back; the stream lives 5 minutes unless extended. 429 with retryAfterSeconds while Google limits ' +
      'the camera (the server waits that long before asking Google again)',
    tags: ['cameras'],
    params: cameraNameParamsSchema,
    body: webrtcOfferRequestSchema,
    response: okEnvelope(webrtcSessionSchema),
    successStatus: 201,
  },
  extendCameraWebRtc: {
    ...apiRoutes.extendCameraWebRtc,
    summary:
      'Extends a WebRTC stream by 5 minutes; 409 (live.webrtc_new_offer) when it cannot be (battery cameras, ' +
      'or the stream ended): the player makes a new offer',
    tags: ['cameras'],
    params: webrtcSessionParamsSchema,
    response: okEnvelope(webrtcExtensionSchema),
  },
  stopCameraWebRtc: {
    ...apiRoutes.stopCameraWebRtc,
    summary: 'Stops a WebRTC stream (the player leaving); one not stopped ends by itself when it expires',
    tags: ['cameras'],
    params: webrtcSessionParamsSchema,
    response: successOnlySchema,
  },
  updateCamera: {
    ...apiRoutes.updateCamera,
    summary: 'Change a camera: settings are merged; removed_date_time_utc removes it (soft)',
    tags: ['cameras'],
    body: updateCameraRequestSchema,
    response: camera,
    failureMessage: MESSAGES.updateCameraSettingsFailed,
  },
  updateCameraSettings: {
    ...apiRoutes.updateCameraSettings,
    summary: "Merge a camera's settings (notes, private mode, mute, facial recognition, login)",
    tags: ['cameras'],
    params: cameraNameParamsSchema,
    body: cameraSettingsPatchSchema,
    response: messageEnvelope(cameraSchema),
    failureMessage: MESSAGES.updateCameraSettingsFailed,
  },
  renameCamera: {
    ...apiRoutes.renameCamera,
    summary: 'Rename a camera; its activities and settings follow the new name',
    tags: ['cameras'],
    body: renameCameraRequestSchema,
    response: camera,
  },
  associateCameraSite: {
    ...apiRoutes.associateCameraSite,
    summary: 'Put a camera into a property (site_uuid null: no property)',
    tags: ['cameras'],
    body: cameraSiteAssociationRequestSchema,
    response: camera,
  },
  getCameraUploadCredentials: {
    ...apiRoutes.getCameraUploadCredentials,
    summary: 'The FTP and email login cameras upload with (created on first call)',
    tags: ['cameras'],
    response: okEnvelope(cameraUploadCredentialsSchema),
    failureMessage: MESSAGES.loadCameraCredentialsFailed,
  },
  regenerateCameraUploadCredentials: {
    ...apiRoutes.regenerateCameraUploadCredentials,
    summary: 'Replace the upload password (the old one stops working at once)',
    tags: ['cameras'],
    response: okEnvelope(cameraUploadCredentialsSchema),
    failureMessage: MESSAGES.regenerateCameraCredentialsFailed,
  },

  listSites: {
    ...apiRoutes.listSites,
    summary: 'Properties of the signed-in user (removed ones hidden), sorted by name',
    tags: ['sites'],
    response: okEnvelope(z.array(siteSchema)),
    failureMessage: MESSAGES.loadSitesFailed,
  },
  createSite: {
    ...apiRoutes.createSite,
    summary: 'Create a property',
    tags: ['sites'],
    body: siteRequestSchema,
    response: site,
    successStatus: 201,
  },
  renameSite: {
    ...apiRoutes.renameSite,
    summary: 'Rename a property',
    tags: ['sites'],
    params: siteParamsSchema,
    body: siteRequestSchema,
    response: site,
  },
  deleteSite: {
    ...apiRoutes.deleteSite,
    summary: 'Remove a property (soft); its cameras are left without a property',
    tags: ['sites'],
    params: siteParamsSchema,
    response: site,
  },
  associateAllMemories: {
    ...apiRoutes.associateAllMemories,
    summary: 'Associate every existing memory with the property',
    tags: ['sites'],
    params: siteParamsSchema,
    response: okEnvelope(associateAllMemoriesResponseSchema),
    failureMessage: MESSAGES.associateMemoriesFailed,
  },
});
