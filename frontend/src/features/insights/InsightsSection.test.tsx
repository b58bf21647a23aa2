import type { AnalyticsResponse, AnalyticsTotals } from '@botsmith/contract';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { refusal, stubResizeObserver, stubScreen } from '../../test/stubs';
import { InsightsSection } from './InsightsSection';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const api = vi.hoisted(() => ({
  analyticsApi: { get: vi.fn() },
  usageApi: { getUsageForecast: vi.fn() },
  userApi: { getSettings: vi.fn() },
}));
vi.mock('../../api', () => api);
const files = vi.hoisted(() => ({ saveFile: vi.fn() }));
vi.mock('../../lib/saveFile', () => files);

const BOTS = [makeBot({ id: 1, name: 'Support Bot' }), makeBot({ id: 2, name: 'Sales Bot' })];
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

const outcome = (count: number, rate: number) => ({ count, rate });

const settings = (timeZone: string | null) => ({
  spendAlertDollars: 20,
  conversationRetentionDays: 365 as const,
  agentName: 'Support',
  timeZone,
  monthlyReport: true,
});

function totals(over: Partial<AnalyticsTotals> = {}): AnalyticsTotals {
  return {
    conversations: 12,
    messages: 40,
    visitors: 9,
    outcomes: {
      resolved: outcome(6, 0.6),
      handed_off: outcome(5, 0.5),
      unanswered: outcome(3, 0.3),
      abandoned: outcome(0, 0),
      rated_down: outcome(0, 0),
    },
    undecided: 2,
    thumbsUp: 4,
    thumbsDown: 1,
    leads: 3,
    spendCents: 72,
    costPerConversationCents: 6,
    costPerResolvedCents: 12,
    ...over,
  };
}

const zeroHours = () => Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));

const TOPICS = [
  { text: 'How do I return an order?', conversations: 4, resolutionRate: 0.75 },
  { text: 'Do you ship to Canada & Mexico?', conversations: 1, resolutionRate: 0 },
  { text: 'Is there a gift card?', conversations: 1, resolutionRate: null },
];

function response(over: Partial<AnalyticsResponse> = {}): AnalyticsResponse {
  const hours = zeroHours();
  hours[1][10] = 3;
  hours[4][15] = 1;
  return {
    botId: null,
    from: '2026-10-29',
    to: '2026-11-27',
    groupBy: 'day',
    timeZone: TIME_ZONE,
    totals: totals(),
    series: [
      {
        start: '2026-11-26',
        conversations: 5,
        outcomes: { resolved: 2, handed_off: 2, unanswered: 1, abandoned: 0, rated_down: 0 },
        spendCents: 30,
      },
      {
        start: '2026-11-27',
        conversations: 7,
        outcomes: { resolved: 4, handed_off: 3, unanswered: 2, abandoned: 0, rated_down: 0 },
        spendCents: 1205,
      },
    ],
    hours,
    topics: TOPICS,
    topicConversations: 5,
    sources: { cited: [], neverCited: [] },
    ...over,
  };
}

/** The previous period: 56% resolved, 14¢ per resolved one, 2 handoffs, 3 unanswered. */
const PREVIOUS = response({
  from: '2026-09-29',
  to: '2026-10-28',
  totals: totals({
    outcomes: {
      resolved: outcome(5, 0.56),
      handed_off: outcome(2, 0.22),
      unanswered: outcome(3, 0.33),
      abandoned: outcome(0, 0),
      rated_down: outcome(0, 0),
    },
    costPerResolvedCents: 14,
  }),
});

/** Answers the period asked for with `current`, the one before it with `previous`. */
function answer(current: AnalyticsResponse, previous: AnalyticsResponse) {
  api.analyticsApi.get.mockImplementation((query: { from: string }) =>
    Promise.resolve(query.from === current.from ? current : previous),
  );
}

const emptyTotals = () =>
  totals({
    conversations: 0,
    messages: 0,
    visitors: 0,
    undecided: 0,
    leads: 0,
    spendCents: 0,
    costPerConversationCents: null,
    costPerResolvedCents: null,
    outcomes: {
      resolved: outcome(0, 0),
      handed_off: outcome(0, 0),
      unanswered: outcome(0, 0),
      abandoned: outcome(0, 0),
      rated_down: outcome(0, 0),
    },
  });

/** jsdom's Blob has no text(): read it as the browser would save it. */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The blob could not be read.'));
    reader.readAsText(blob);
  });
}

/** The account ends the period at $31.75 (no alert reached); Sales Bot reaches its $10 budget on the 30th. */
const FORECAST = {
  account: { periodEnd: '2026-12-02', spentCents: 2100, forecastCents: 3175, budgetCents: null, budgetReachedOn: null },
  bots: [
    {
      botId: 2,
      botName: 'Sales Bot',
      periodEnd: '2026-12-02',
      spentCents: 700,
      forecastCents: 1100,
      budgetCents: 1000,
      budgetReachedOn: '2026-11-30',
    },
  ],
};

function topicsList() {
  return within(screen.getByRole('list', { name: 'Topics' }));
}

function card(name: string) {
  return within(screen.getByRole('listitem', { name }));
}

describe('InsightsSection', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    stubResizeObserver();
    stubScreen('desktop');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 27, 12, 0, 0));
    api.usageApi.getUsageForecast.mockResolvedValue(FORECAST);
    api.userApi.getSettings.mockResolvedValue(settings(null));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the headline figures with their change against the previous 30 days', async () => {
    answer(response(), PREVIOUS);
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    expect(screen.getByLabelText('Loading insights')).toHaveAttribute('aria-busy', 'true');
    await screen.findByRole('list', { name: 'Headline figures' });

    expect(card('Resolution rate').getByText('60%')).toBeInTheDocument();
    expect(card('Resolution rate').getByText('+4 pts')).toHaveAttribute('data-tone', 'good');
    expect(card('Resolution rate').getByText('of 10 decided conversations')).toBeInTheDocument();
    expect(card('Cost per resolved conversation').getByText('$0.12')).toBeInTheDocument();
    expect(card('Cost per resolved conversation').getByText('\u2212$0.02')).toHaveAttribute('data-tone', 'good');
    expect(card('Handoffs').getByText('5')).toBeInTheDocument();
    expect(card('Handoffs').getByText('+3')).toHaveAttribute('data-tone', 'neutral');
    expect(card('Unanswered').getByText('3')).toBeInTheDocument();
    expect(card('Unanswered').getByText('No change')).toBeInTheDocument();
    expect(screen.getAllByText(/vs previous 30 days/)).toHaveLength(4);

    // The heatmap names each cell.
    expect(screen.getByLabelText('Tue 10:00 – 3 conversations')).toHaveAttribute(
      'title',
      'Tue 10:00 – 3 conversations',
    );
    expect(screen.getByLabelText('Fri 15:00 – 1 conversation')).toBeInTheDocument();
    expect(screen.getByLabelText('Sun 23:00 – 0 conversations')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Conversations by outcome per day' })).toBeInTheDocument();

    expect(api.analyticsApi.get).toHaveBeenCalledTimes(2);
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { groupBy: 'day', timeZone: TIME_ZONE, from: '2026-10-29', to: '2026-11-27' },
      expect.any(AbortSignal),
    );
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { groupBy: 'day', timeZone: TIME_ZONE, from: '2026-09-29', to: '2026-10-28' },
      expect.any(AbortSignal),
    );
  });

  it("counts days in the time zone saved in Settings, and in the browser's when the settings cannot be read", async () => {
    const saved = TIME_ZONE === 'Pacific/Auckland' ? 'America/Lima' : 'Pacific/Auckland';
    api.userApi.getSettings.mockResolvedValue(settings(saved));
    answer(response({ timeZone: saved }), response({ from: '2026-09-29', to: '2026-10-28', timeZone: saved }));
    const { unmount } = renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    await screen.findByRole('list', { name: 'Headline figures' });
    expect(screen.getByText(new RegExp(`counted in your time zone \\(${saved}\\)`))).toBeInTheDocument();
    expect(api.analyticsApi.get).toHaveBeenCalledTimes(2);
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { groupBy: 'day', timeZone: saved, from: '2026-10-29', to: '2026-11-27' },
      expect.any(AbortSignal),
    );
    unmount();

    api.analyticsApi.get.mockClear();
    api.userApi.getSettings.mockImplementation(() => refusal(500, 'Down.'));
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    await screen.findByRole('list', { name: 'Headline figures' });
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { groupBy: 'day', timeZone: TIME_ZONE, from: '2026-10-29', to: '2026-11-27' },
      expect.any(AbortSignal),
    );
  });

  it('shows no change when the previous period had no conversations', async () => {
    answer(response(), response({ from: '2026-09-29', to: '2026-10-28', totals: emptyTotals() }));
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    await screen.findByRole('list', { name: 'Headline figures' });
    expect(card('Resolution rate').getByText('60%')).toBeInTheDocument();
    expect(screen.queryByText(/vs previous/)).not.toBeInTheDocument();
  });

  it('says so when the period has no conversations', async () => {
    answer(response({ totals: emptyTotals() }), response({ from: '2026-09-29', totals: emptyTotals() }));
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    expect(await screen.findByText('No conversations in this period yet')).toBeInTheDocument();
    expect(screen.getByText(/Try a longer period; once visitors chat/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Headline figures' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  });

  it("shows the server's message when the figures cannot be loaded, and Retry loads them", async () => {
    api.analyticsApi.get.mockImplementation(() => refusal(400, 'Unknown time zone: Mars/Olympus.', 'INVALID_RANGE'));
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    expect(await screen.findByText('Unknown time zone: Mars/Olympus.')).toBeInTheDocument();
    answer(response(), PREVIOUS);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Headline figures' })).toBeInTheDocument();
    expect(screen.queryByText('Unknown time zone: Mars/Olympus.')).not.toBeInTheDocument();
  });

  it('downloads the series as CSV: one row per period, each outcome, the spend in dollars', async () => {
    answer(response(), PREVIOUS);
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    await screen.findByRole('list', { name: 'Headline figures' });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(files.saveFile).toHaveBeenCalledTimes(1);
    const [blob, fileName] = files.saveFile.mock.calls[0] as [Blob, string];
    expect(fileName).toBe('insights_2026-10-29_2026-11-27_day.csv');
    expect(blob.type).toBe('text/csv;charset=utf-8');
    expect(await textOf(blob)).toBe(
      [
        'Start,Conversations,Resolved,Handed off,Unanswered,Abandoned,Rated down,Spend (USD)',
        '2026-11-26,5,2,2,1,0,0,0.30',
        '2026-11-27,7,4,3,2,0,0,12.05',
        '',
      ].join('\r\n'),
    );
  });

  it('asks again for the chosen bot, period and grouping, with the period before of the same length', async () => {
    answer(response(), PREVIOUS);
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    await screen.findByRole('list', { name: 'Headline figures' });

    api.analyticsApi.get.mockClear();
    await userEvent.click(screen.getByRole('combobox', { name: 'Bot' }));
    await userEvent.click(screen.getByRole('option', { name: 'Sales Bot' }));
    await waitFor(() => expect(api.analyticsApi.get).toHaveBeenCalledTimes(2));
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { botId: '2', groupBy: 'day', timeZone: TIME_ZONE, from: '2026-10-29', to: '2026-11-27' },
      expect.any(AbortSignal),
    );

    api.analyticsApi.get.mockClear();
    await userEvent.click(screen.getByRole('combobox', { name: 'Period' }));
    await userEvent.click(screen.getByRole('option', { name: 'Last 7 days' }));
    await waitFor(() => expect(api.analyticsApi.get).toHaveBeenCalledTimes(2));
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { botId: '2', groupBy: 'day', timeZone: TIME_ZONE, from: '2026-11-21', to: '2026-11-27' },
      expect.any(AbortSignal),
    );
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { botId: '2', groupBy: 'day', timeZone: TIME_ZONE, from: '2026-11-14', to: '2026-11-20' },
      expect.any(AbortSignal),
    );

    api.analyticsApi.get.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'By week' }));
    await waitFor(() => expect(api.analyticsApi.get).toHaveBeenCalledTimes(2));
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { botId: '2', groupBy: 'week', timeZone: TIME_ZONE, from: '2026-11-21', to: '2026-11-27' },
      expect.any(AbortSignal),
    );
  });

  it('asks for custom dates, and not for a reversed range', async () => {
    answer(response(), PREVIOUS);
    renderAtDashboard(
      <InsightsSection bots={BOTS} />,
      '/dashboard/insights?range=custom&from=2026-11-01&to=2026-11-10',
    );
    await screen.findByRole('list', { name: 'Headline figures' });
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { groupBy: 'day', timeZone: TIME_ZONE, from: '2026-11-01', to: '2026-11-10' },
      expect.any(AbortSignal),
    );
    expect(api.analyticsApi.get).toHaveBeenCalledWith(
      { groupBy: 'day', timeZone: TIME_ZONE, from: '2026-10-22', to: '2026-10-31' },
      expect.any(AbortSignal),
    );

    api.analyticsApi.get.mockClear();
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-01' } });
    expect(await screen.findByText('Choose a start date on or before the end date.')).toBeInTheDocument();
    expect(api.analyticsApi.get).not.toHaveBeenCalled();
  });

  it('lists the topics with their conversations and resolution rate, each a link to the inbox searching for it', async () => {
    answer(response(), PREVIOUS);
    const { router } = renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    await screen.findByRole('list', { name: 'Topics' });
    const links = topicsList().getAllByRole('link');
    expect(links).toHaveLength(3);
    expect(links[0]).toHaveTextContent('How do I return an order?4 conversations75% resolved');
    expect(links[1]).toHaveTextContent('Do you ship to Canada & Mexico?1 conversation0% resolved');
    // None of its conversations has an outcome yet: no rate rather than 0 %.
    expect(links[2]).toHaveTextContent('Is there a gift card?1 conversationNot decided yet');
    expect(links[0]).toHaveAttribute('href', '/dashboard/conversations?q=How+do+I+return+an+order%3F');
    expect(links[1]).toHaveAttribute('href', '/dashboard/conversations?q=Do+you+ship+to+Canada+%26+Mexico%3F');
    // Fewer than 2,000 conversations: the topics are read from all of them, and no note says otherwise.
    expect(screen.queryByText(/From the latest/)).not.toBeInTheDocument();

    await userEvent.click(links[1]);
    expect(router.state.location.pathname).toBe('/dashboard/conversations');
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('Do you ship to Canada & Mexico?');
  });

  it("links a chosen bot's topics to the inbox narrowed to that bot, and names the cap on the conversations read", async () => {
    answer(response({ botId: 2, topicConversations: 2000 }), { ...PREVIOUS, botId: 2 });
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights?botId=2');
    await screen.findByRole('list', { name: 'Topics' });
    expect(topicsList().getAllByRole('link')[0]).toHaveAttribute(
      'href',
      '/dashboard/conversations?botId=2&q=How+do+I+return+an+order%3F',
    );
    expect(screen.getByText('From the latest 2,000 conversations')).toBeInTheDocument();
  });

  it('says so when no conversation of the period asked anything', async () => {
    answer(response({ topics: [], topicConversations: 0 }), PREVIOUS);
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    expect(await screen.findByText('No questions to group in this period.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Topics' })).not.toBeInTheDocument();
  });

  it('lists the sources cited most with their citations and those never cited, each with its bot under all bots', async () => {
    answer(
      response({
        sources: {
          cited: [
            { sourceId: 7, name: 'returns.pdf', botId: 1, citations: 12 },
            { sourceId: 9, name: 'https://shop.example/shipping', botId: 2, citations: 1 },
          ],
          neverCited: [{ sourceId: 8, name: 'old-prices.txt', botId: 1 }],
        },
      }),
      PREVIOUS,
    );
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    const cited = within(await screen.findByRole('list', { name: 'Most cited' }));
    const rows = cited.getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'returns.pdf · Support Bot12 citations',
      'https://shop.example/shipping · Sales Bot1 citation',
    ]);
    const never = within(screen.getByRole('list', { name: 'Never cited' }));
    expect(never.getAllByRole('listitem').map((row) => row.textContent)).toEqual(['old-prices.txt · Support Bot']);
  });

  it('says so when the chosen bot has no sources, or when its answers cited none of them', async () => {
    answer(response({ botId: 2 }), { ...PREVIOUS, botId: 2 });
    const { unmount } = renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights?botId=2');
    expect(await screen.findByText(/^This bot has no knowledge sources\./)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Most cited' })).not.toBeInTheDocument();
    expect(screen.queryByText('Never cited')).not.toBeInTheDocument();
    unmount();

    answer(response({ botId: 2, sources: { cited: [], neverCited: [{ sourceId: 9, name: 'faq.md', botId: 2 }] } }), {
      ...PREVIOUS,
      botId: 2,
    });
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights?botId=2');
    expect(await screen.findByText('No answer cited a source in this period.')).toBeInTheDocument();
    // One bot chosen: the sources are its own, so no bot name follows them.
    expect(
      within(screen.getByRole('list', { name: 'Never cited' }))
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['faq.md']);
    expect(screen.queryByText(/no knowledge sources/)).not.toBeInTheDocument();
  });

  it("shows the account's spend forecast under All bots, and the chosen bot's once one is chosen", async () => {
    answer(response(), PREVIOUS);
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    expect(await screen.findByTestId('spend-forecast')).toHaveTextContent(
      'At this pace, this period ends at about $31.75.',
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Bot' }));
    await userEvent.click(screen.getByRole('option', { name: 'Sales Bot' }));
    await waitFor(() =>
      expect(screen.getByTestId('spend-forecast')).toHaveTextContent(
        'At this pace, Sales Bot reaches its $10 budget around the 30th.',
      ),
    );
    // One read serves the account and every bot.
    expect(api.usageApi.getUsageForecast).toHaveBeenCalledTimes(1);
  });

  it('shows the forecast even when the period had no conversations', async () => {
    answer(response({ totals: emptyTotals() }), response({ from: '2026-09-29', totals: emptyTotals() }));
    renderAtDashboard(<InsightsSection bots={BOTS} />, '/dashboard/insights');
    expect(await screen.findByText('No conversations in this period yet')).toBeInTheDocument();
    expect(screen.getByTestId('spend-forecast')).toHaveTextContent('At this pace, this period ends at about $31.75.');
  });
});
