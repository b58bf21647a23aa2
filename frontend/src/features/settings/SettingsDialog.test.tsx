import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { defaultLogsFileName } from './LogsTab';
import { SettingsDialog } from './SettingsDialog';
import { renderAtDashboard } from '../../test/render';
import { history } from '../../test/fixtures';
import { stubResizeObserver } from '../../test/stubs';

const api = vi.hoisted(() => ({
  usageApi: {
    getUserUsage: vi.fn(),
    getUserUsageHistory: vi.fn(),
    getUsageForecast: vi.fn(),
    downloadLogs: vi.fn(),
  },
  billingApi: { getSubscription: vi.fn(), getOverview: vi.fn(), createPortalSession: vi.fn() },
  authApi: { logout: vi.fn(), deleteAccount: vi.fn() },
  userApi: { getSettings: vi.fn(), updateSettings: vi.fn() },
}));
vi.mock('../../api', () => api);

const failure = () => Promise.reject(new ApiError(500, 'INTERNAL_ERROR', 'boom', true));

/** The account reaches its $20 alert on Nov 24 at this pace; the bot has no budget. */
const FORECAST = {
  account: {
    periodEnd: '2026-12-02',
    spentCents: 1200,
    forecastCents: 2900,
    budgetCents: 2000,
    budgetReachedOn: '2026-11-24',
  },
  bots: [
    {
      botId: 1,
      botName: 'Shop helper',
      periodEnd: '2026-12-02',
      spentCents: 1200,
      forecastCents: 2900,
      budgetCents: null,
      budgetReachedOn: null,
    },
  ],
};

const SETTINGS = {
  spendAlertDollars: 20,
  conversationRetentionDays: 365,
  agentName: 'Support',
  timeZone: null,
  monthlyReport: true,
};
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function renderDialog() {
  return renderAtDashboard(<SettingsDialog open onClose={vi.fn()} email="owner@example.com" />);
}

describe('SettingsDialog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  beforeEach(() => {
    stubResizeObserver();
    api.usageApi.getUserUsage.mockResolvedValue({
      usageCents: 123,
      monthlyUsageCents: 123,
      creditsCents: 450,
      logsAvailable: true,
      notChargedAnswers: 0,
    });
    api.usageApi.getUserUsageHistory.mockResolvedValue(history());
    api.usageApi.getUsageForecast.mockResolvedValue(FORECAST);
    api.billingApi.getSubscription.mockResolvedValue({
      status: 'active',
      currentPeriodStart: '2026-11-03T00:00:00.000Z',
      currentPeriodEnd: '2026-12-03T00:00:00.000Z',
      creditsCents: 450,
    });
    api.authApi.logout.mockResolvedValue({});
    api.authApi.deleteAccount.mockResolvedValue({});
    api.userApi.getSettings.mockResolvedValue(SETTINGS);
    api.userApi.updateSettings.mockImplementation((settings: object) => Promise.resolve({ ...SETTINGS, ...settings }));
  });

  describe('name on your replies (Account tab)', () => {
    it("shows the saved name ('Support' by default) and saves a new one, trimmed", async () => {
      const user = userEvent.setup();
      renderDialog();
      const field = await screen.findByLabelText('Name on your replies');
      await waitFor(() => expect(field).toHaveValue('Support'));
      await user.clear(field);
      await user.type(field, '  Ana at Acme ');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(api.userApi.updateSettings).toHaveBeenCalledWith({ agentName: 'Ana at Acme' });
      expect(await screen.findByText('Name on your replies saved.')).toBeInTheDocument();
      expect(field).toHaveValue('Ana at Acme');
    });

    it("says what is wrong with an empty name, and shows the server's sentence when it refuses", async () => {
      const user = userEvent.setup();
      renderDialog();
      const field = await screen.findByLabelText('Name on your replies');
      await waitFor(() => expect(field).toHaveValue('Support'));
      await user.clear(field);
      expect(screen.getByText('Use 1 to 60 characters.')).toBeInTheDocument();
      api.userApi.updateSettings.mockRejectedValueOnce(
        new ApiError(400, 'VALIDATION_FAILED', 'Invalid agentName: must be text of 1 to 60 characters.', true),
      );
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Invalid agentName: must be text of 1 to 60 characters.')).toBeInTheDocument();
    });
  });

  describe('time zone and monthly report (Account tab)', () => {
    it('shows "Browser default" until a zone is saved, and saves the zone picked, or null for the browser\'s', async () => {
      const user = userEvent.setup();
      renderDialog();
      const field = await screen.findByRole('combobox', { name: 'Time zone' });
      await waitFor(() => expect(field).toHaveValue(`Browser default (${BROWSER_ZONE})`));
      await user.click(field);
      await user.clear(field);
      await user.type(field, 'Tokyo');
      await user.click(await screen.findByRole('option', { name: 'Asia/Tokyo' }));
      await user.click(screen.getByRole('button', { name: 'Save time zone' }));
      expect(api.userApi.updateSettings).toHaveBeenCalledWith({ timeZone: 'Asia/Tokyo' });
      expect(await screen.findByText('Time zone saved.')).toBeInTheDocument();
      expect(field).toHaveValue('Asia/Tokyo');

      await user.click(field);
      await user.clear(field);
      await user.type(field, 'Browser');
      await user.click(await screen.findByRole('option', { name: /^Browser default \(/ }));
      await user.click(screen.getByRole('button', { name: 'Save time zone' }));
      expect(api.userApi.updateSettings).toHaveBeenLastCalledWith({ timeZone: null });
    });

    it("shows a saved zone, and the server's sentence when it refuses one", async () => {
      const user = userEvent.setup();
      api.userApi.getSettings.mockResolvedValue({ ...SETTINGS, timeZone: 'America/New_York' });
      renderDialog();
      const field = await screen.findByRole('combobox', { name: 'Time zone' });
      await waitFor(() => expect(field).toHaveValue('America/New_York'));
      api.userApi.updateSettings.mockRejectedValueOnce(
        new ApiError(
          400,
          'VALIDATION_FAILED',
          "Invalid timeZone: must be an IANA time zone such as Europe/Berlin, or null for the browser's.",
          true,
        ),
      );
      await user.click(screen.getByRole('button', { name: 'Save time zone' }));
      expect(
        await screen.findByText(
          "Invalid timeZone: must be an IANA time zone such as Europe/Berlin, or null for the browser's.",
        ),
      ).toBeInTheDocument();
    });

    it('shows the monthly report on by default and turns it off and on at once', async () => {
      const user = userEvent.setup();
      renderDialog();
      const toggle = await screen.findByRole('switch', { name: 'Monthly report by e-mail' });
      await waitFor(() => expect(toggle).toBeChecked());
      await user.click(toggle);
      expect(api.userApi.updateSettings).toHaveBeenCalledWith({ monthlyReport: false });
      expect(await screen.findByText('Monthly report turned off.')).toBeInTheDocument();
      expect(toggle).not.toBeChecked();

      api.userApi.updateSettings.mockImplementationOnce(failure);
      await user.click(toggle);
      // The toast and the alert under the switch.
      expect(await screen.findAllByText('Error saving the monthly report setting.')).toHaveLength(2);
      // Saving failed: the switch shows what is saved.
      expect(toggle).not.toBeChecked();
    });
  });

  describe('spend alert (Usage tab)', () => {
    it('shows the saved amount ($20 by default) and saves a new whole-dollar amount', async () => {
      const user = userEvent.setup();
      renderDialog();
      await user.click(screen.getByRole('tab', { name: 'Usage' }));
      const field = await screen.findByLabelText('Spend alert (USD per month)');
      await waitFor(() => expect(field).toHaveValue('20'));
      expect(screen.getByText(/passes another 50% of this amount\. 0 turns these emails off\./)).toBeInTheDocument();
      await user.clear(field);
      await user.type(field, '3a5.');
      expect(field).toHaveValue('35');
      await user.click(screen.getByRole('button', { name: 'Save alert' }));
      expect(api.userApi.updateSettings).toHaveBeenCalledWith({ spendAlertDollars: 35 });
      expect(await screen.findByText('Spend alert saved.')).toBeInTheDocument();
    });

    it("saves an empty field as 0 (no emails) and shows the server's sentence when it refuses", async () => {
      const user = userEvent.setup();
      renderDialog();
      await user.click(screen.getByRole('tab', { name: 'Usage' }));
      const field = await screen.findByLabelText('Spend alert (USD per month)');
      await waitFor(() => expect(field).toHaveValue('20'));
      await user.clear(field);
      await user.click(screen.getByRole('button', { name: 'Save alert' }));
      expect(api.userApi.updateSettings).toHaveBeenCalledWith({ spendAlertDollars: 0 });

      api.userApi.updateSettings.mockRejectedValueOnce(
        new ApiError(400, 'VALIDATION_FAILED', 'Invalid spendAlertDollars: must be at most 1000000.', true),
      );
      await user.type(field, '9999999');
      await user.click(screen.getByRole('button', { name: 'Save alert' }));
      expect(await screen.findByText('Invalid spendAlertDollars: must be at most 1000000.')).toBeInTheDocument();
      expect(await screen.findByText('Error saving spend alert.')).toBeInTheDocument();
    });
  });

  describe('conversation retention (Privacy tab)', () => {
    const select = () => screen.findByRole('combobox', { name: "Keep visitors' conversations for" });

    it('shows the saved retention (1 year by default) and saves the one chosen, Forever as null', async () => {
      const user = userEvent.setup();
      renderDialog();
      await user.click(screen.getByRole('tab', { name: 'Privacy' }));
      await waitFor(async () => expect(await select()).toHaveTextContent('1 year'));
      await user.click(await select());
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        '30 days',
        '90 days',
        '1 year',
        'Forever',
      ]);
      await user.click(screen.getByRole('option', { name: '30 days' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(api.userApi.updateSettings).toHaveBeenCalledWith({ conversationRetentionDays: 30 });
      expect(await screen.findByText('Privacy settings saved.')).toBeInTheDocument();

      await user.click(await select());
      await user.click(screen.getByRole('option', { name: 'Forever' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(api.userApi.updateSettings).toHaveBeenLastCalledWith({ conversationRetentionDays: null });
      await waitFor(async () => expect(await select()).toHaveTextContent('Forever'));
    });

    it('shows a saved "forever" as Forever', async () => {
      api.userApi.getSettings.mockResolvedValue({
        spendAlertDollars: 20,
        conversationRetentionDays: null,
        agentName: 'Support',
      });
      const user = userEvent.setup();
      renderDialog();
      await user.click(screen.getByRole('tab', { name: 'Privacy' }));
      await waitFor(async () => expect(await select()).toHaveTextContent('Forever'));
    });

    it('keeps the select disabled while loading, and says when loading or saving failed', async () => {
      let resolve: (value: unknown) => void = () => undefined;
      // Every read waits (the Account tab's name field reads the settings too).
      api.userApi.getSettings.mockReturnValue(new Promise((done) => (resolve = done)));
      const user = userEvent.setup();
      renderDialog();
      await user.click(screen.getByRole('tab', { name: 'Privacy' }));
      expect(await select()).toHaveAttribute('aria-disabled', 'true');
      expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
      resolve({ spendAlertDollars: 20, conversationRetentionDays: 90, agentName: 'Support' });
      await waitFor(async () => expect(await select()).toHaveTextContent('90 days'));

      api.userApi.updateSettings.mockRejectedValueOnce(
        new ApiError(
          400,
          'VALIDATION_FAILED',
          'Invalid conversationRetentionDays: must be 30, 90, 365, or null (forever).',
          true,
        ),
      );
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(
        await screen.findByText('Invalid conversationRetentionDays: must be 30, 90, 365, or null (forever).'),
      ).toBeInTheDocument();
      expect(await screen.findByText('Error saving privacy settings.')).toBeInTheDocument();
    });

    it('says so when the settings cannot be fetched', async () => {
      api.userApi.getSettings.mockImplementation(failure);
      const user = userEvent.setup();
      renderDialog();
      await user.click(screen.getByRole('tab', { name: 'Privacy' }));
      expect(await screen.findByText('Error fetching your privacy settings.')).toBeInTheDocument();
    });
  });

  it('opens on the Account tab with the e-mail, among seven tabs (Billing added)', () => {
    renderDialog();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Account',
      'Usage',
      'Billing',
      'Logs',
      'Privacy',
      'Integrations',
      'Delete',
    ]);
    expect(screen.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('owner@example.com')).toBeInTheDocument();
  });

  it('opens on Billing when asked (the card pages come back to it), with the card and invoices', async () => {
    api.billingApi.getOverview.mockResolvedValue({
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2039 },
      invoices: [],
      testMode: true,
    });
    renderAtDashboard(<SettingsDialog open onClose={vi.fn()} email="owner@example.com" initialTab="billing" />);
    expect(screen.getByRole('tab', { name: 'Billing' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByTestId('billing-card')).toHaveTextContent('Visa ending in 4242');
  });

  it('signs out through the API, then goes to /login', async () => {
    const user = userEvent.setup();
    const { router } = renderDialog();
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(api.authApi.logout).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows usage in dollars with two decimals, the credits left, the period, the chart and the reset note', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Usage' }));
    expect(await screen.findByTestId('settings-usage-dollars')).toHaveTextContent('$1.23');
    expect(screen.getByTestId('settings-credits-dollars')).toHaveTextContent('$4.50');
    expect(await screen.findByRole('figure', { name: 'Usage over the last 10 days' })).toBeInTheDocument();
    expect(
      await screen.findByText('Usage since Nov 3, 2026; resets on Dec 3, 2026 (UTC). Subscription: active.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/resets on the 3rd/)).toBeInTheDocument();
    expect(screen.getByText(/delay may offset your bill slightly/)).toBeInTheDocument();
  });

  it("says when the account's spend reaches its alert at this pace, else where the period ends", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    api.usageApi.getUsageForecast.mockClear();
    const user = userEvent.setup();
    const { unmount } = renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Usage' }));
    expect(await screen.findByTestId('spend-forecast')).toHaveTextContent(
      'At this pace, your spend reaches your $20 alert around the 24th.',
    );
    expect(api.usageApi.getUsageForecast).toHaveBeenCalledTimes(1);
    unmount();

    api.usageApi.getUsageForecast.mockResolvedValue({
      ...FORECAST,
      account: { ...FORECAST.account, forecastCents: 1240, budgetReachedOn: null },
    });
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Usage' }));
    expect(await screen.findByTestId('spend-forecast')).toHaveTextContent(
      'At this pace, this period ends at about $12.40.',
    );
  });

  it('says how many answers of the period were not charged, and says nothing when none were', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Usage' }));
    expect(await screen.findByTestId('settings-usage-dollars')).toHaveTextContent('$1.23');
    expect(screen.queryByTestId('not-charged-answers')).not.toBeInTheDocument();
  });

  it('shows the not-charged line with the count the usage API gives', async () => {
    api.usageApi.getUserUsage.mockResolvedValue({
      usageCents: 12,
      monthlyUsageCents: 12,
      creditsCents: 450,
      logsAvailable: true,
      notChargedAnswers: 1,
    });
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Usage' }));
    expect(await screen.findByTestId('settings-usage-dollars')).toHaveTextContent('$0.12');
    expect(screen.getByText('not charged: 1 answers the bot could not give')).toBeInTheDocument();
  });

  it('toasts the exact texts when usage, history or subscription cannot be fetched', async () => {
    api.usageApi.getUserUsage.mockImplementation(failure);
    api.usageApi.getUserUsageHistory.mockImplementation(failure);
    api.billingApi.getSubscription.mockImplementation(failure);
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Usage' }));
    expect(await screen.findAllByText('Error fetching usage info.')).not.toHaveLength(0);
    expect(await screen.findAllByText('Error fetching usage history.')).not.toHaveLength(0);
    expect(await screen.findByText('Error fetching subscription details.')).toBeInTheDocument();
  });

  it('offers the logs download only when logs are available', async () => {
    api.usageApi.getUserUsage.mockResolvedValue({
      usageCents: 0,
      monthlyUsageCents: 0,
      creditsCents: 500,
      logsAvailable: false,
    });
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Logs' }));
    expect(await screen.findByRole('button', { name: 'Download Logs' })).toBeDisabled();
    expect(api.usageApi.downloadLogs).not.toHaveBeenCalled();
  });

  it('saves the logs under the name the server gives', async () => {
    const blob = new Blob(['xlsx'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    api.usageApi.downloadLogs.mockResolvedValue({ blob, fileName: 'user_logs_2026-11-22_10-11-12.xlsx' });
    const createObjectURL = vi.fn(() => 'blob:logs');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Logs' }));
    const button = await screen.findByRole('button', { name: 'Download Logs' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(createObjectURL).toHaveBeenCalledWith(blob);
    expect(clicked[0].download).toBe('user_logs_2026-11-22_10-11-12.xlsx');
    expect(clicked[0].href).toBe('blob:logs');
  });

  it("toasts 'Error downloading logs.' when the download fails", async () => {
    api.usageApi.downloadLogs.mockImplementation(failure);
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Logs' }));
    const button = await screen.findByRole('button', { name: 'Download Logs' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(await screen.findByText('Error downloading logs.')).toBeInTheDocument();
  });

  it('names a file user_logs_{date}_{time}.xlsx (UTC) when the server does not', () => {
    expect(defaultLogsFileName(new Date('2026-11-22T09:05:03.120Z'))).toBe('user_logs_2026-11-22_09-05-03.xlsx');
  });

  it('deletes the account only on the second click, then goes to /', async () => {
    const user = userEvent.setup();
    const { router } = renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Delete My Account' }));
    expect(api.authApi.deleteAccount).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/dashboard');
    await user.click(screen.getByRole('button', { name: 'Confirm Delete My Account' }));
    expect(api.authApi.deleteAccount).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("stays put and toasts 'Error deleting account.' when deleting fails", async () => {
    api.authApi.deleteAccount.mockImplementation(failure);
    const user = userEvent.setup();
    const { router } = renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Delete My Account' }));
    await user.click(screen.getByRole('button', { name: 'Confirm Delete My Account' }));
    expect(await screen.findByText('Error deleting account.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
