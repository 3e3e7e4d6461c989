import {
  MEMORIES_PREFETCH_AFTER_LOGIN_MS,
  MESSAGES,
  type MemoryCategory,
} from '@homesitter/contract/runtime';
import type { Memories, Memory, MemoryBody, MemoryImage } from '@homesitter/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { useSession } from '../../shared/lib/useSession';
import { memoriesOf } from './categories';

/** The same key the cameras feature refreshes after associating memories with a property. */
export const memoriesKey = ['memories'] as const;

export async function fetchMemories(force = false): Promise<Memories> {
  return (await api.call('listMemories', { query: { force } })).data;
}

/** Every memory by category (stale after 1 h); only for a signed-in, verified user (docs/product.md §4). */
export function useMemories() {
  const { status, isVerified } = useSession();
  return useQuery({
    queryKey: memoriesKey,
    queryFn: () => fetchMemories(true),
    enabled: status === 'signedIn' && isVerified,
  });
}

/** One memory, from the list when it is loaded, else from its own call. */
export function useMemory(category: MemoryCategory, id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...memoriesKey, category, id],
    queryFn: async () => (await api.call('getMemory', { params: { category, id } })).data,
    initialData: () =>
      memoriesOf(queryClient.getQueryData<Memories>(memoriesKey), category).find((m) => m.memory_uuid === id),
    initialDataUpdatedAt: () => queryClient.getQueryState(memoriesKey)?.dataUpdatedAt,
  });
}

/** Puts a changed memory into the list and its own entry. */
function store(queryClient: QueryClient, memory: Memory) {
  queryClient.setQueryData([...memoriesKey, memory.category, memory.memory_uuid], memory);
  void queryClient.invalidateQueries({ queryKey: memoriesKey, exact: true });
}

export function useSaveMemory(category: MemoryCategory, id?: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: MemoryBody) =>
      id
        ? (await api.call('updateMemory', { params: { category, id }, body })).data
        : (await api.call('createMemory', { params: { category }, body })).data,
    onSuccess: (memory) => store(queryClient, memory),
    onError: (error) => notify.error(errorText(t, error, MESSAGES.saveMemoryFailed)),
  });
}

export function useDeleteMemory(category: MemoryCategory, id: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => api.call('deleteMemory', { params: { category, id } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [...memoriesKey, category, id] });
      void queryClient.invalidateQueries({ queryKey: memoriesKey, exact: true });
    },
    onError: (error) => notify.error(errorText(t, error, MESSAGES.deleteMemoryFailed)),
  });
}

export function useDeleteImage(category: MemoryCategory, id: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (imageId: string) =>
      (await api.call('deleteMemoryImage', { params: { category, id, imageId } })).data,
    onSuccess: (memory) => store(queryClient, memory),
    onError: (error) => notify.error(errorText(t, error, MESSAGES.deleteImageFailed)),
  });
}

/** Adds a photo as multipart form data, with its progress; 120 s like every upload (docs/product.md §9). */
export async function uploadMemoryImage(
  category: MemoryCategory,
  id: string,
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<MemoryImage> {
  const form = new FormData();
  form.append('image', file, file instanceof File ? file.name : 'image');
  const answer = await api.call('uploadMemoryImage', {
    params: { category, id },
    form,
    onUploadProgress: onProgress,
    fallbackMessage: MESSAGES.uploadImageFailed,
  });
  return answer.data.image;
}

/** Reads a memory again after photos were added. */
export async function refreshMemory(queryClient: QueryClient, category: MemoryCategory, id: string) {
  const memory = (await api.call('getMemory', { params: { category, id } })).data;
  store(queryClient, memory);
}

export function useRefreshMemory(category: MemoryCategory, id: string) {
  const queryClient = useQueryClient();
  return () => refreshMemory(queryClient, category, id);
}

export const PREFETCH_DELAY_MS = MEMORIES_PREFETCH_AFTER_LOGIN_MS;
