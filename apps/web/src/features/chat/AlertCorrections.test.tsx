import type { ActivityRecognition, Memories } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import deChat from '../../../public/locales/de/chat.json';
import enChat from '../../../public/locales/en/chat.json';
import { setupTestI18n } from '../../test/i18n';
import { memoriesKey } from '../memories/api';
import { AlertCorrections } from './AlertCorrections';
import { fetchRecognition, postCorrection } from './recognitionApi';

vi.mock('./recognitionApi', () => ({
  recognitionKey: (id: string) => ['ai', 'recognition', id],
  fetchRecognition: vi.fn(),
  postCorrection: vi.fn(),
}));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

const ROSE = '11111111-1111-4111-8111-111111111111';
const JIM = '22222222-2222-4222-8222-222222222222';

const recognition = (over: Partial<ActivityRecognition>): ActivityRecognition => ({
  activity_uuid: 'a1',
  recognised: [],
  unknown_faces: 0,
  can_learn: true,
  ...over,
});

const person = (memory_uuid: string, name: string) =>
  ({ category: 'people', memory_uuid, name }) as Memories['people'][number];

function renderAlert(activityUuids: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(memoriesKey, {
    people: [person(ROSE, 'Rose'), person(JIM, 'Jim')],
    vehicles: [],
    animals: [],
    general: [],
    is_amnesia_mode_enabled: false,
  });
  render(
    <QueryClientProvider client={client}>
      <AlertCorrections activityUuids={activityUuids} />
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  const i18n = await setupTestI18n();
  i18n.addResourceBundle('en', 'chat', enChat);
  i18n.addResourceBundle('de', 'chat', deChat);
});

beforeEach(() => {
  vi.mocked(fetchRecognition).mockReset();
  vi.mocked(postCorrection).mockReset();
});

describe('correcting an alert with one tap', () => {
  it('confirms a recognised person: "Yes, that\'s Rose" teaches every activity she was seen in', async () => {
    vi.mocked(fetchRecognition).mockImplementation(async (id) =>
      recognition({
        activity_uuid: id,
        recognised: [{ category: 'people', memory_uuid: ROSE, name: 'Rose' }],
      }),
    );
    vi.mocked(postCorrection).mockResolvedValue({ ...recognition({}), learned_faces: 1 });
    renderAlert(['a1', 'a2']);

    const group = await screen.findByRole('group', { name: 'Who is in this alert' });
    expect(group).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: "Yes, that's Rose" }));
    expect(postCorrection).toHaveBeenCalledWith('a1', ROSE, true);
    expect(postCorrection).toHaveBeenCalledWith('a2', ROSE, true);
    expect(await screen.findByRole('status')).toHaveTextContent("Thanks! I'll remember that this is Rose.");
    expect(screen.queryByRole('button', { name: "Yes, that's Rose" })).not.toBeInTheDocument();
  });

  it('rejects a recognised person with "Not Rose"', async () => {
    vi.mocked(fetchRecognition).mockResolvedValue(
      recognition({ recognised: [{ category: 'people', memory_uuid: ROSE, name: 'Rose' }] }),
    );
    vi.mocked(postCorrection).mockResolvedValue({ ...recognition({ unknown_faces: 1 }), learned_faces: 1 });
    renderAlert(['a1']);
    await userEvent.click(await screen.findByRole('button', { name: 'Not Rose' }));
    expect(postCorrection).toHaveBeenCalledWith('a1', ROSE, false);
    expect(await screen.findByRole('status')).toHaveTextContent(
      "Thanks! I'll remember that this is not Rose.",
    );
  });

  it('asks "Who is this?" for an unknown face and names it with the picked person (keyboard only)', async () => {
    vi.mocked(fetchRecognition).mockResolvedValue(recognition({ unknown_faces: 1 }));
    vi.mocked(postCorrection).mockResolvedValue({ ...recognition({}), learned_faces: 1 });
    renderAlert(['a1']);
    const user = userEvent.setup();
    const trigger = await screen.findByRole('button', { name: 'Who is this?' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Who is this?' });
    expect(menu).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Rose' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Jim' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(postCorrection).toHaveBeenCalledWith('a1', JIM, true));
    expect(await screen.findByRole('status')).toHaveTextContent("Thanks! I'll remember that this is Jim.");
  });

  it('shows nothing when nobody was recognised and no face can be learned from', async () => {
    vi.mocked(fetchRecognition).mockResolvedValue(recognition({ unknown_faces: 1, can_learn: false }));
    renderAlert(['a1']);
    await waitFor(() => expect(fetchRecognition).toHaveBeenCalled());
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
  });

  it('speaks German', async () => {
    const i18n = await setupTestI18n();
    await i18n.changeLanguage('de');
    vi.mocked(fetchRecognition).mockResolvedValue(
      recognition({
        recognised: [{ category: 'people', memory_uuid: ROSE, name: 'Rose' }],
        unknown_faces: 1,
      }),
    );
    renderAlert(['a1']);
    expect(await screen.findByRole('button', { name: 'Ja, das ist Rose' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nicht Rose' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wer ist das?' })).toBeInTheDocument();
    await i18n.changeLanguage('en');
  });
});
