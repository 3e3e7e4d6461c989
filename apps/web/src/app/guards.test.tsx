import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { session } from '../shared/lib/api';
import { originPath } from '../shared/lib/returnPath';
import { setupTestI18n } from '../test/i18n';
import { fakeAuthSession } from '../test/session';
import { RequireUser, RequireVerified } from './guards';

beforeAll(setupTestI18n);

function Where({ name }: { name: string }) {
  const location = useLocation();
  return <p>{`${name} from ${originPath(location.state)}`}</p>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/auth" element={<Where name="auth" />} />
        <Route
          path="/verify-email"
          element={
            <RequireUser>
              <Where name="verify" />
            </RequireUser>
          }
        />
        <Route element={<RequireVerified />}>
          <Route path="/settings/account" element={<p>account page</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('guards', () => {
  it('shows a spinner while the auth state is unknown', () => {
    renderAt('/settings/account');
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
  });

  it('sends a signed-out visitor to /auth, keeping where they were going', async () => {
    await session.init();
    renderAt('/settings/account?tab=1');
    expect(screen.getByText('auth from /settings/account?tab=1')).toBeInTheDocument();
  });

  it('sends an unverified user to /verify-email, which itself only needs a user', () => {
    session.establish(fakeAuthSession(false));
    renderAt('/settings/account');
    expect(screen.getByText('verify from /settings/account')).toBeInTheDocument();
  });

  it('lets a verified user in', () => {
    session.establish(fakeAuthSession(true));
    renderAt('/settings/account');
    expect(screen.getByText('account page')).toBeInTheDocument();
    session.endLocally();
  });
});
