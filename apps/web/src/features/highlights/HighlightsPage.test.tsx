import type { ActivitySummary } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import deHighlights from '../../../public/locales/de/highlights.json';
import enHighlights from '../../../public/locales/en/highlights.json';
import { api } from '../../shared/lib/api';
import { emitRealtime } from '../../test/fakeRealtime';
import { setupTestI18n } from '../../test/i18n';
import HighlightsPage from './HighlightsPage';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useRealtime', () => import('../../test/fakeRealtime'));
vi.mock('../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedIn', isVerified: true }),
}));
vi.mock('../user/profile', () => ({ useProfile: () => ({ data: { timezone: 'Europe/Berlin' } }) }));

const call = vi.mocked(api.call);
let days: Record<string, ActivitySummary[]>;

const summary = (over: Partial<ActivitySummary>): ActivitySummary => ({
  summary_uuid: crypto.randomUUID(),
  site_uuid: null,
  period: 'hourly',
  period_start: '2025-06-10T01:00:00.000Z',
  period_end: '2025-06-10T02:00:00.000Z',
  counts: { person: 1 },
  recognised_names: [],
  notable_moments: [],
  text: '',
  thumbnail_image_url: null,
  thumbnail_focus: { x: 0.5, y: 0.5 },
  created_at: '2025-06-10T02:05:00.000Z',
  ...over,
});

// The device runs in UTC and it is 03:30 on 10 June in Berlin (01:30 UTC).
const deviceZone = process.env.TZ;
beforeAll(async () => {
  process.env.TZ = 'UTC';
  vi.useFakeTimers({ now: new Date('2025-06-10T01:30:00Z'), toFake: ['Date'] });
  const i18n = await setupTestI18n();
  i18n.addResourceBundle('en', 'highlights', enHighlights);
  i18n.addResourceBundle('de', 'highlights', deHighlights);
});
afterAll(() => {
  vi.useRealTimers();
  process.env.TZ = deviceZone;
});
beforeEach(() => {
  days = {};
  call.mockReset();
  call.mockImplementation((async (name: string, input: { query: { date: string } }) => {
    if (name !== 'getActivitySummaries') throw new Error(`unexpected call ${name}`);
    return { success: true, data: days[input.query.date] ?? [] };
  }) as never);
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <HighlightsPage />
    </QueryClientProvider>,
  );
}

describe('the highlights page', () => {
  it("shows every time on the profile's clock, as the texts do, and says which clock that is", async () => {
    days['2025-06-10'] = [
      summary({
        period_start: '2025-06-10T01:00:00.000Z',
        period_end: '2025-06-10T02:00:00.000Z',
        text: 'Between 3:00 AM and 4:00 AM: one event with a person. Notable: A person walked up to the Door at 3:10 AM.',
        notable_moments: [
          {
            activity_uuid: 'a1',
            date_time_utc: '2025-06-10T01:10:00.000Z',
            camera_name: 'Door',
            description: 'A person walked up to the Door at 3:10 AM.',
            thumbnail_image_url: null,
            thumbnail_focus: { x: 0.5, y: 0.5 },
            clip_url: null,
            hls_url: null,
          },
        ],
      }),
    ];
    renderPage();
    const card = await screen.findByTestId('hourly-summary');
    expect(within(card).getByRole('heading', { level: 3 })).toHaveTextContent(/^03:00\sAM – 04:00\sAM$/);
    expect(within(card).getByText(/^03:10\sAM · Door$/)).toBeInTheDocument();
    expect(screen.getByTestId('time-zone-note')).toHaveTextContent('Times in Europe/Berlin');
    // "Today" is the profile's day.
    expect(screen.getByLabelText('Day')).toHaveValue('2025-06-10');
  });

  it('shows the first event of the day when the server says the day was written, without a reload', async () => {
    renderPage();
    expect(await screen.findByText('Nothing to report for this day')).toBeInTheDocument();

    days['2025-06-10'] = [
      summary({
        period: 'daily',
        period_start: '2025-06-09T22:00:00.000Z',
        period_end: '2025-06-10T22:00:00.000Z',
        text: 'Today so far: one event with a person.',
      }),
    ];
    act(() => emitRealtime('SummariesUpdated', { period: 'daily', date: '2025-06-10' }));
    expect(await screen.findByText('Today so far: one event with a person.')).toBeInTheDocument();
    expect(screen.queryByText('Nothing to report for this day')).not.toBeInTheDocument();
  });

  it("shows each property's daily summary", async () => {
    days['2025-06-10'] = [
      summary({ period: 'daily', site_uuid: 's1', text: 'Today at Home so far: one event.' }),
      summary({ period: 'daily', site_uuid: 's2', text: 'Today at the Cabin so far: one event.' }),
    ];
    renderPage();
    expect(await screen.findAllByTestId('daily-summary')).toHaveLength(2);
    expect(screen.getByText('Today at the Cabin so far: one event.')).toBeInTheDocument();
  });

  it('flags an unusual moment and says why', async () => {
    const unusual = (reason: string) =>
      summary({
        period: 'daily',
        period_start: '2025-06-09T22:00:00.000Z',
        period_end: '2025-06-10T22:00:00.000Z',
        notable_moments: [
          {
            activity_uuid: 'a1',
            date_time_utc: '2025-06-10T01:10:00.000Z',
            camera_name: 'Porch',
            description: 'A person walked up to the Porch at 3:10 AM.',
            thumbnail_image_url: null,
            thumbnail_focus: { x: 0.5, y: 0.5 },
            clip_url: null,
            hls_url: null,
            is_unusual: true,
            unusual_reason: reason,
          },
        ],
      });
    days['2025-06-10'] = [unusual('Nobody has been on the Porch at night in the last 30 days.')];
    renderPage();
    const card = await screen.findByTestId('daily-summary');
    expect(within(card).getByText('Unusual')).toBeInTheDocument();
    expect(
      within(card).getByText('Nobody has been on the Porch at night in the last 30 days.'),
    ).toBeInTheDocument();
  });
});
