import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { BotUsageTab } from './BotUsageTab';
import { renderAtDashboard } from '../../test/render';
import { history } from '../../test/fixtures';
import { stubResizeObserver } from '../../test/stubs';

const api = vi.hoisted(() => ({
  usageApi: { getBotUsage: vi.fn(), getBotUsageHistory: vi.fn(), getUsageForecast: vi.fn() },
  botsApi: { update: vi.fn() },
}));
vi.mock('../../api', () => api);

const failure = () => Promise.reject(new ApiError(500, 'INTERNAL_ERROR', 'boom', true));

/** Bot 42's forecast: $12.40 by the period's end, its budget reached on `reachedOn` (none when null). */
function forecast(reachedOn: string | null) {
  const figures = {
    periodEnd: '2026-12-02',
    spentCents: 600,
    forecastCents: 1240,
    budgetCents: reachedOn ? 1000 : null,
    budgetReachedOn: reachedOn,
  };
  return {
    account: { ...figures, budgetCents: 2000, budgetReachedOn: null },
    bots: [
      { ...figures, botId: 7, botName: 'Other bot', budgetCents: 100, budgetReachedOn: '2026-11-21' },
      { ...figures, botId: 42, botName: 'Shop helper' },
    ],
  };
}

describe('BotUsageTab', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubResizeObserver();
    api.usageApi.getBotUsage.mockResolvedValue({
      usageCents: 1505,
      usageLimitDollars: 7,
      logsAvailable: true,
      notChargedAnswers: 0,
    });
    api.usageApi.getBotUsageHistory.mockResolvedValue(history());
    api.usageApi.getUsageForecast.mockResolvedValue(forecast(null));
    api.botsApi.update.mockImplementation((_id: number, changes: { usageLimitDollars: number }) =>
      Promise.resolve({ bot: { id: 42, usageLimitDollars: changes.usageLimitDollars } }),
    );
  });

  it("shows the bot's usage in dollars with two decimals, its limit and the 10-day chart", async () => {
    renderAtDashboard(<BotUsageTab botId={42} />);
    expect(await screen.findByTestId('bot-usage-dollars')).toHaveTextContent('$15.05');
    expect(screen.getByLabelText(/Usage limit/)).toHaveValue('7');
    expect(screen.getByText('$15.05 of $7.00 limit', { exact: false })).toBeInTheDocument();
    const chart = await screen.findByRole('figure', { name: 'Bot usage over the last 10 days' });
    // The chart module loads lazily; then its legend names the series. The first import of
    // @mui/x-charts in a fresh vitest run (cold transform cache) took over 5 s in a clean CI run.
    await waitFor(() => expect(chart).toHaveTextContent('Visitor messages'), { timeout: 20_000 });
    for (const series of ['Answers', 'Cost']) expect(chart).toHaveTextContent(series);
    // Answers and visitor messages are often equal: a mark per day on the answers and a dashed line
    // for the visitor messages keep both in sight where the two lines coincide.
    await waitFor(() => expect(chart.querySelectorAll('circle[data-series-id="answers"]')).toHaveLength(10));
    expect(chart.querySelectorAll('circle[data-series-id="visitor-messages"]')).toHaveLength(0);
    const visitorLine = chart.querySelector('path[data-series-id="visitor-messages"]');
    expect(visitorLine && getComputedStyle(visitorLine).getPropertyValue('stroke-dasharray')).toBe('6 4');
    // Tokens are no longer a series on a shared axis: they are in the totals line.
    expect(chart).toHaveTextContent('Last 10 days: 4 answers · 6 visitor messages · 570 tokens · $0.20.');
    expect(api.usageApi.getBotUsage).toHaveBeenCalledWith(42);
    expect(api.usageApi.getBotUsageHistory).toHaveBeenCalledWith(42);
  });

  it('shows the answers the bot could not give as not charged, only when there are some', async () => {
    api.usageApi.getBotUsage.mockResolvedValue({
      usageCents: 12,
      usageLimitDollars: 0,
      logsAvailable: true,
      notChargedAnswers: 3,
    });
    const { unmount } = renderAtDashboard(<BotUsageTab botId={42} />);
    expect(await screen.findByTestId('not-charged-answers')).toHaveTextContent(
      'not charged: 3 answers the bot could not give',
    );
    unmount();
    api.usageApi.getBotUsage.mockResolvedValue({
      usageCents: 12,
      usageLimitDollars: 0,
      logsAvailable: true,
      notChargedAnswers: 0,
    });
    renderAtDashboard(<BotUsageTab botId={42} />);
    expect(await screen.findByTestId('bot-usage-dollars')).toHaveTextContent('$0.12');
    expect(screen.queryByTestId('not-charged-answers')).not.toBeInTheDocument();
  });

  it("links to the bot's unanswered questions on the conversations page", async () => {
    const onLeave = vi.fn();
    renderAtDashboard(<BotUsageTab botId={42} onLeave={onLeave} />);
    const link = await screen.findByRole('link', { name: 'Unanswered questions' });
    expect(link).toHaveAttribute('href', '/dashboard/conversations?view=questions&botId=42');
    await userEvent.click(link);
    expect(onLeave).toHaveBeenCalled();
  });

  it('accepts digits only in the limit field and saves whole dollars', async () => {
    const user = userEvent.setup();
    renderAtDashboard(<BotUsageTab botId={42} />);
    const field = await screen.findByLabelText(/Usage limit/);
    await waitFor(() => expect(field).toHaveValue('7'));
    await user.clear(field);
    await user.type(field, '2a5.-x');
    expect(field).toHaveValue('25');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    expect(api.botsApi.update).toHaveBeenCalledWith(42, { usageLimitDollars: 25 });
    expect(await screen.findByText('Usage limit updated successfully!')).toBeInTheDocument();
  });

  it('saves an empty limit as 0', async () => {
    const user = userEvent.setup();
    renderAtDashboard(<BotUsageTab botId={42} />);
    const field = await screen.findByLabelText(/Usage limit/);
    await waitFor(() => expect(field).toHaveValue('7'));
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    expect(api.botsApi.update).toHaveBeenCalledWith(42, { usageLimitDollars: 0 });
    await waitFor(() => expect(field).toHaveValue('0'));
  });

  it('says so when saving the limit fails, and keeps what was typed', async () => {
    api.botsApi.update.mockImplementation(failure);
    const user = userEvent.setup();
    renderAtDashboard(<BotUsageTab botId={42} />);
    const field = await screen.findByLabelText(/Usage limit/);
    await waitFor(() => expect(field).toHaveValue('7'));
    await user.clear(field);
    await user.type(field, '9');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    expect(await screen.findByText('Error updating usage limit.')).toBeInTheDocument();
    expect(screen.queryByText('Usage limit updated successfully!')).not.toBeInTheDocument();
    expect(field).toHaveValue('9');
  });

  it('shows the exact inline errors when usage or history cannot be fetched', async () => {
    api.usageApi.getBotUsage.mockImplementation(failure);
    api.usageApi.getBotUsageHistory.mockImplementation(failure);
    renderAtDashboard(<BotUsageTab botId={42} />);
    expect(await screen.findByText('Error fetching bot usage.')).toBeInTheDocument();
    expect(await screen.findByText('Error fetching usage history')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save limit' })).toBeDisabled();
  });

  it('says when the bot reaches its budget at this pace, and reads it again once a new budget is saved', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    try {
      api.usageApi.getUsageForecast.mockClear();
      api.usageApi.getUsageForecast.mockResolvedValue(forecast('2026-11-24'));
      renderAtDashboard(<BotUsageTab botId={42} />);
      expect(await screen.findByTestId('spend-forecast')).toHaveTextContent(
        'At this pace, Shop helper reaches its $10 budget around the 24th.',
      );

      api.usageApi.getUsageForecast.mockResolvedValue(forecast(null));
      const field = screen.getByLabelText(/Usage limit/);
      await userEvent.clear(field);
      await userEvent.click(screen.getByRole('button', { name: 'Save limit' }));
      await waitFor(() =>
        expect(screen.getByTestId('spend-forecast')).toHaveTextContent(
          'At this pace, this period ends at about $12.40.',
        ),
      );
      expect(api.usageApi.getUsageForecast).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows no forecast for a bot that has spent nothing and is heading nowhere', async () => {
    const idle = forecast(null);
    idle.bots = idle.bots.map((bot) => ({ ...bot, spentCents: 0, forecastCents: 0 }));
    api.usageApi.getUsageForecast.mockResolvedValue(idle);
    renderAtDashboard(<BotUsageTab botId={42} />);
    await screen.findByRole('button', { name: 'Save limit' });
    await waitFor(() => expect(api.usageApi.getUsageForecast).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('spend-forecast')).not.toBeInTheDocument();
  });
});
