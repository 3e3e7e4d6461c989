import type {
  CameraConnectionInput,
  AddCameraRequest,
  Camera,
  CameraConfigurationStatus,
  CameraDetail,
  CameraSettingsPatch,
  Site,
} from '@homesitter/contract';
import { MEMORY_LIST_KEYS } from '@homesitter/contract/runtime';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/lib/api';
import { notify } from '../../shared/lib/toast';

export const camerasKey = ['cameras'] as const;
export const sitesKey = ['sites'] as const;
/** Every camera's detail query; one camera's is `cameraKey(name)`. */
export const cameraDetailsKey = ['camera'] as const;
export const cameraKey = (name: string) => [...cameraDetailsKey, name.toLowerCase()] as const;
export const uploadCredentialsKey = ['camera-upload-credentials'] as const;
/** The property made last in this session (cleared with the rest of the cache at sign-out). */
const createdSiteKey = ['created-site'] as const;
/** The memories feature's queries: refreshed after memories are associated with a property. */
export const memoriesKey = ['memories'] as const;

/** A streaming camera's snapshot is at most a minute old: the list follows it while shown. */
const STREAM_SNAPSHOT_REFRESH_MS = 60_000;
/** While a camera is being configured its detail is read this often, besides realtime (a safety net). */
export const CONFIGURATION_POLL_MS = 3_000;

const isSettling = (status: CameraConfigurationStatus | undefined) =>
  status === 'configuring' || status === 'pending';

/** Cameras that are not removed, sorted by name (stale after 1 h; refreshed on visibility while stale). */
export function useCameras() {
  return useQuery({
    queryKey: camerasKey,
    queryFn: async () => (await api.call('listCameras')).data,
    refetchInterval: (query) =>
      query.state.data?.some((c) => c.stream_status === 'streaming') ? STREAM_SNAPSHOT_REFRESH_MS : false,
  });
}

/**
 * The property a new camera most likely belongs to: the one just created in this session, else the only
 * one there is; with several and none new, "No property" (null) until the user picks.
 */
export function defaultSiteUuid(sites: readonly Site[], created: string | undefined): string | null {
  if (created && sites.some((s) => s.site_uuid === created)) return created;
  return sites.length === 1 ? sites[0]!.site_uuid : null;
}

export function useDefaultSiteUuid(): string | null {
  const queryClient = useQueryClient();
  const sites = useSites();
  return defaultSiteUuid(sites.data ?? [], queryClient.getQueryData<string>(createdSiteKey));
}

export function useSites() {
  return useQuery({
    queryKey: sitesKey,
    queryFn: async () => (await api.call('listSites')).data,
  });
}

/**
 * The owner's detail view (with the camera's own login). `followConfiguration` reads it every few seconds
 * while a stream camera is being configured, in case a realtime message is missed.
 */
export function useCameraDetail(name: string, options: { followConfiguration?: boolean } = {}) {
  return useQuery({
    queryKey: cameraKey(name),
    queryFn: async () => (await api.call('getCamera', { params: { name } })).data,
    refetchInterval: (query) =>
      options.followConfiguration &&
      query.state.data?.connection_type !== 'upload' &&
      isSettling(query.state.data?.configuration_status)
        ? CONFIGURATION_POLL_MS
        : false,
  });
}

export function useUploadCredentials() {
  return useQuery({
    queryKey: uploadCredentialsKey,
    queryFn: async () => (await api.call('getCameraUploadCredentials')).data,
  });
}

function refreshCameras(queryClient: QueryClient, name?: string) {
  void queryClient.invalidateQueries({ queryKey: camerasKey });
  if (name) void queryClient.invalidateQueries({ queryKey: cameraKey(name) });
}

/** An upload camera (no `connection`) or a stream camera (RTSP / ONVIF), which then configures itself. */
export function useAddCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddCameraRequest) => (await api.call('addCamera', { body: input })).data,
    onSuccess: (camera) => refreshCameras(queryClient, camera.name),
  });
}

/** What realtime and `configure` tell of a camera before it is read again. */
export type CameraStatusChanges = Partial<
  Pick<
    Camera,
    | 'configuration_status'
    | 'configuration_error'
    | 'configuration_error_code'
    | 'stream_status'
    | 'stream_error'
  >
>;

/** Puts what the server says of a camera into its cached detail and the list at once. */
export function mergeCamera(queryClient: QueryClient, name: string, changes: CameraStatusChanges) {
  const lower = name.toLowerCase();
  queryClient.setQueryData<CameraDetail>(cameraKey(name), (detail) =>
    detail ? { ...detail, ...changes } : detail,
  );
  queryClient.setQueryData<Camera[]>(camerasKey, (list) =>
    list?.map((c) => (c.name.toLowerCase() === lower ? { ...c, ...changes } : c)),
  );
}

/**
 * Configures a stream camera again: with the stored connection (`POST …/configure`, 202), or with a
 * corrected one (`update-camera` with `connection`). Either answers with status `configuring`; the result
 * follows over realtime and in the camera.
 */
export function useConfigureCamera(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (connection?: CameraConnectionInput) =>
      connection
        ? (await api.call('updateCamera', { body: { name, connection } })).data
        : (await api.call('configureCamera', { params: { name } })).data,
    onSuccess: (camera) => {
      mergeCamera(queryClient, name, {
        configuration_status: camera.configuration_status,
        configuration_error: camera.configuration_error,
        configuration_error_code: camera.configuration_error_code,
        stream_status: camera.stream_status,
      });
      refreshCameras(queryClient, name);
    },
  });
}

export function useUpdateCameraSettings(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: CameraSettingsPatch) =>
      (await api.call('updateCameraSettings', { params: { name }, body: settings })).data,
    onSuccess: () => refreshCameras(queryClient, name),
  });
}

export function useRenameCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { current_name: string; new_name: string }) =>
      (await api.call('renameCamera', { body: input })).data,
    onSuccess: (_camera, input) => refreshCameras(queryClient, input.current_name),
  });
}

/** docs/product.md §4: removal is soft, the removal time (now, ISO) is sent. */
export function useRemoveCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      (await api.call('updateCamera', { body: { name, removed_date_time_utc: new Date().toISOString() } }))
        .data,
    onSuccess: (_camera, name) => {
      queryClient.setQueryData<Camera[]>(camerasKey, (list) => list?.filter((c) => c.name !== name));
      queryClient.removeQueries({ queryKey: cameraKey(name) });
      refreshCameras(queryClient);
    },
  });
}

/** Moves a camera between properties at once; a failure puts it back with a toast. */
export function useAssignCameraSite() {
  const queryClient = useQueryClient();
  const { t } = useTranslation('cameras');
  return useMutation({
    mutationFn: async (input: { camera_name: string; site_uuid: string | null }) =>
      (await api.call('associateCameraSite', { body: input })).data,
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: camerasKey });
      const previous = queryClient.getQueryData<Camera[]>(camerasKey);
      queryClient.setQueryData<Camera[]>(camerasKey, (list) =>
        list?.map((c) => (c.name === input.camera_name ? { ...c, site_uuid: input.site_uuid } : c)),
      );
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(camerasKey, context.previous);
      notify.error(t('notices.cameraSiteFailed'));
    },
    onSettled: (_camera, _error, input) => refreshCameras(queryClient, input.camera_name),
  });
}

export function useCreateSite() {
  const queryClient = useQueryClient();
  const { t } = useTranslation('cameras');
  return useMutation({
    mutationFn: async (name: string) => (await api.call('createSite', { body: { name } })).data,
    onSuccess: (site) => {
      queryClient.setQueryData<Site[]>(sitesKey, (list) =>
        [...(list ?? []), site].sort((a, b) =>
          a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
        ),
      );
      void queryClient.invalidateQueries({ queryKey: sitesKey });
      queryClient.setQueryData(createdSiteKey, site.site_uuid);
      notify.success(t('notices.propertyCreated', { name: site.name }));
    },
    onError: () => notify.error(t('notices.propertyCreateFailed')),
  });
}

export function useRenameSite() {
  const queryClient = useQueryClient();
  const { t } = useTranslation('cameras');
  return useMutation({
    mutationFn: async (input: { siteUuid: string; name: string }) =>
      (await api.call('renameSite', { params: { siteUuid: input.siteUuid }, body: { name: input.name } }))
        .data,
    onSuccess: (site) => {
      queryClient.setQueryData<Site[]>(sitesKey, (list) =>
        list?.map((s) => (s.site_uuid === site.site_uuid ? site : s)),
      );
      void queryClient.invalidateQueries({ queryKey: sitesKey });
      notify.success(t('notices.propertyUpdated'));
    },
    onError: () => notify.error(t('notices.propertyUpdateFailed')),
  });
}

/** docs/product.md §4: removed at once, restored on failure, cameras refreshed on success. */
export function useDeleteSite() {
  const queryClient = useQueryClient();
  const { t } = useTranslation('cameras');
  return useMutation({
    mutationFn: async (siteUuid: string) => (await api.call('deleteSite', { params: { siteUuid } })).data,
    onMutate: async (siteUuid) => {
      await queryClient.cancelQueries({ queryKey: sitesKey });
      const previous = queryClient.getQueryData<Site[]>(sitesKey);
      queryClient.setQueryData<Site[]>(sitesKey, (list) => list?.filter((s) => s.site_uuid !== siteUuid));
      return { previous };
    },
    onError: (_error, _siteUuid, context) => {
      if (context?.previous) queryClient.setQueryData(sitesKey, context.previous);
      notify.error(t('notices.propertyDeleteFailed'));
    },
    onSuccess: () => {
      notify.success(t('notices.propertyDeleted'));
      refreshCameras(queryClient);
      void queryClient.invalidateQueries({ queryKey: sitesKey });
    },
  });
}

/** docs/product.md §4: Yes in the associate-all prompt calls the bulk association, then refreshes memories. */
/** How many memories the user keeps, from the memories list (cached with the memories feature's query). */
export async function countMemories(queryClient: QueryClient): Promise<number> {
  const all = await queryClient.fetchQuery({
    queryKey: memoriesKey,
    queryFn: async () => (await api.call('listMemories', { query: { force: true } })).data,
  });
  return Object.values(MEMORY_LIST_KEYS).reduce((sum, key) => sum + all[key].length, 0);
}

export function useAssociateAllMemories() {
  const queryClient = useQueryClient();
  const { t } = useTranslation('cameras');
  return useMutation({
    mutationFn: async (siteUuid: string) =>
      (await api.call('associateAllMemories', { params: { siteUuid } })).data,
    onSuccess: () => {
      notify.success(t('notices.memoriesAssociated'));
      void queryClient.invalidateQueries({ queryKey: memoriesKey });
    },
    onError: () => notify.error(t('notices.memoriesAssociateFailed')),
  });
}

export function useRegenerateUploadCredentials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api.call('regenerateCameraUploadCredentials')).data,
    onSuccess: (creds) => queryClient.setQueryData(uploadCredentialsKey, creds),
  });
}
