import type { UserProfile } from '@homesitter/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';
import { i18n, isSupportedLanguage } from '../../shared/lib/i18n';
import { useSession } from '../../shared/lib/useSession';

export const profileKey = ['profile'] as const;

function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The profile payload of POST /api/users (docs/product.md §4 sign-up: phone and time zone). */
export function newProfileBody(phone?: string | null) {
  const language = i18n.language;
  return {
    phone_number: phone || undefined,
    timezone: browserTimeZone(),
    preferred_language: isSupportedLanguage(language) ? language : undefined,
  };
}

/** GET /api/users/profile, creating the profile first when the server has none yet. */
export async function fetchOrCreateProfile(): Promise<UserProfile> {
  try {
    return (await api.call('getProfile')).data;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'user.not_found') {
      return (await api.call('createUser', { body: newProfileBody() })).data;
    }
    throw error;
  }
}

/** The signed-in user's profile; loads only for a signed-in, verified user (docs/product.md §4). */
export function useProfile() {
  const { status, isVerified } = useSession();
  return useQuery({
    queryKey: profileKey,
    queryFn: fetchOrCreateProfile,
    enabled: status === 'signedIn' && isVerified,
  });
}

/** "Signed in as": first name, else the account email, else loading, error or anonymous (docs/product.md §2). */
export function signedInName(input: {
  firstName?: string | null;
  email?: string | null;
  isLoading: boolean;
  isError: boolean;
  labels: { loading: string; error: string; anonymous: string };
}): string {
  if (input.firstName?.trim()) return input.firstName.trim();
  if (input.email) return input.email;
  if (input.isLoading) return input.labels.loading;
  if (input.isError) return input.labels.error;
  return input.labels.anonymous;
}
