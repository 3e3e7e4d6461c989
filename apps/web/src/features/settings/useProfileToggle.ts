import type { UserProfile } from '@homesitter/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileKey } from '../user/profile';
import { notify } from '../../shared/lib/toast';

export interface ProfileToggleOptions<V> {
  /** Calls the server; answers the updated profile. */
  save: (value: V) => Promise<UserProfile>;
  /** The optimistic change. */
  apply: (profile: UserProfile, value: V) => UserProfile;
  successText?: (value: V) => string;
  failureText: (value: V, error: unknown) => string;
}

/** docs/product.md §4 "Toggles": the screen changes at once, the server is called, and a failure reverts with a toast. */
export function useProfileToggle<V>({ save, apply, successText, failureText }: ProfileToggleOptions<V>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onMutate: async (value: V) => {
      await queryClient.cancelQueries({ queryKey: profileKey });
      const previous = queryClient.getQueryData<UserProfile>(profileKey);
      if (previous) queryClient.setQueryData(profileKey, apply(previous, value));
      return { previous };
    },
    onError: (error, value, context) => {
      if (context?.previous) queryClient.setQueryData(profileKey, context.previous);
      notify.error(failureText(value, error));
    },
    onSuccess: (profile, value) => {
      queryClient.setQueryData(profileKey, profile);
      if (successText) notify.success(successText(value));
    },
  });
}
