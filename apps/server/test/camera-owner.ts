/**
 * A camera owner made over HTTP, on a server a test started in its own process (crash, shutdown and fault
 * tests): signed up, with a profile, and the camera upload login the account's cameras send with.
 */
export interface CameraOwner {
  idToken: string;
  userId: string;
  login: { username: string; password: string };
}

export async function cameraOwnerOverHttp(base: string, email: string): Promise<CameraOwner> {
  const call = async <T>(path: string, body?: unknown, idToken?: string): Promise<T> => {
    const res = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'content-type': 'application/json',
        ...(idToken ? { authorization: `Bearer ${idToken}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  const { idToken } = await call<{ idToken: string }>('/api/auth/sign-up', {
    email,
    password: 'correct horse battery',
  });
  await call('/api/users', { timezone: 'UTC', phone_number: '(555) 123-4567' }, idToken);
  const { data: login } = await call<{ data: CameraOwner['login'] }>(
    '/api/users/camera-email-credentials',
    undefined,
    idToken,
  );
  const { data: profile } = await call<{ data: { user_uuid: string } }>(
    '/api/users/profile',
    undefined,
    idToken,
  );
  return { idToken, userId: profile.user_uuid, login };
}
