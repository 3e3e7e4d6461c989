import type { Activity } from '@homesitter/contract';
import { ACTIVITIES_PAGE_SIZE } from '@homesitter/contract/runtime';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/lib/api';
import { useRealtimeEvent } from '../../shared/lib/useRealtime';

/** Every activities query; a new event or a deleted history refreshes them. */
export const activitiesKey = ['activities'] as const;
export const cameraActivitiesKey = (name: string) =>
  [...activitiesKey, 'camera', name.toLowerCase()] as const;

/** A camera's past events, newest first, a page at a time ("Load more" asks for the next). */
export function useCameraActivities(name: string) {
  return useInfiniteQuery({
    queryKey: cameraActivitiesKey(name),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      api.call('listActivities', {
        query: { camera_name: name, page: pageParam, pageSize: ACTIVITIES_PAGE_SIZE },
      }),
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.page + 1 : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
  });
}

/** While shown, a new event of the camera (realtime `ActivityCreated`) appears without a reload. */
export function useLiveActivities(name: string) {
  const queryClient = useQueryClient();
  useRealtimeEvent('ActivityCreated', (event) => {
    if (!event.camera_name || event.camera_name.toLowerCase() === name.toLowerCase())
      void queryClient.invalidateQueries({ queryKey: cameraActivitiesKey(name) });
  });
}

/** "Delete history": every activity of the camera with its media. */
export function useDeleteCameraHistory(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api.call('deleteCameraHistory', { params: { name } })).data,
    onSuccess: () => {
      queryClient.setQueryData(cameraActivitiesKey(name), { pages: [], pageParams: [] });
      void queryClient.invalidateQueries({ queryKey: activitiesKey });
    },
  });
}

export type { Activity };
