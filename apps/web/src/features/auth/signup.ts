import { MESSAGES } from '@homesitter/contract/runtime';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';

export const signupStatusKey = ['signupStatus'] as const;

/** GET /api/signup/status; a failure is logged and counts as enabled (docs/product.md §7). */
export async function fetchSignupEnabled(): Promise<boolean> {
  try {
    return (await api.call('signupStatus')).data.enabled;
  } catch (error) {
    console.warn('Sign-up status unavailable; treating sign-up as enabled', error);
    return true;
  }
}

export function useSignupEnabled() {
  return useQuery({ queryKey: signupStatusKey, queryFn: fetchSignupEnabled, staleTime: 60_000 });
}

/** POST /api/signup/waitlist; throws the server's message, else "Failed to join waitlist". */
export async function joinWaitlist(email: string): Promise<void> {
  try {
    await api.call('joinWaitlist', { body: { email } });
  } catch (error) {
    if (error instanceof ApiError && error.status > 0 && error.message) throw error;
    throw new Error(MESSAGES.joinWaitlistFailed);
  }
}
