import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiErrorCode } from '../../api/client';
import { DashboardPage } from './DashboardPage';
import { renderAtDashboard } from '../../test/render';
import { makeBot } from '../../test/fixtures';
import { stubResizeObserver, stubScreen } from '../../test/stubs';

const api = vi.hoisted(() => ({
  mailApi: { usage: vi.fn(), notifyEmails: vi.fn(), resend: vi.fn() },
  userApi: { me: vi.fn(), getSettings: vi.fn(), updateSettings: vi.fn() },
  botsApi: { list: vi.fn(), create: vi.fn(), get: vi.fn(), update: vi.fn(), remove: vi.fn() },
  categoriesApi: { list: vi.fn(), create: vi.fn(), remove: vi.fn() },
  uploadsApi: { uploadIcon: vi.fn(), uploadDocument: vi.fn() },
  usageApi: {
    getUserUsage: vi.fn(),
    getUserUsageHistory: vi.fn(),
    downloadLogs: vi.fn(),
    getBotUsage: vi.fn(),
    getBotUsageHistory: vi.fn(),
    getUsageForecast: vi.fn(),
  },
  billingApi: { getSubscription: vi.fn() },
  authApi: { logout: vi.fn(), deleteAccount: vi.fn() },
  conversationsApi: { list: vi.fn(), get: vi.fn(), unansweredQuestions: vi.fn() },
  analyticsApi: { get: vi.fn() },
}));
vi.mock('../../api', () => api);
const analytics = vi.hoisted(() => ({ track: vi.fn() }));
vi.mock('../../analytics/analytics', () => analytics);

// The first render of a file pays for loading MUI; a slow shared machine needs more than 1 s.
configure({ asyncUtilTimeout: 5000 });

const PAID = {
  id: 1,
  email: 'owner@example.com',
  hasPaid: true,
  stripeCustomerId: 'cus_1',
  subscriptionItemId: 'si_1',
};
const fail = (status: number, code: ApiErrorCode = 'ERROR', message = 'Nope.') =>
  Promise.reject(new ApiError(status, code, message, true));

describe('DashboardPage', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    stubScreen('desktop');
    api.userApi.me.mockResolvedValue(PAID);
    api.userApi.getSettings.mockResolvedValue({
      spendAlertDollars: 20,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    api.botsApi.list.mockResolvedValue({
      bots: [
        makeBot({ id: 1, name: 'Support Bot', categoryId: 10 }),
        makeBot({ id: 2, name: 'Sales Bot', categoryId: null, model: 'gpt-4o' }),
      ],
    });
    api.categoriesApi.list.mockResolvedValue({ categories: [{ id: 10, name: 'Acme' }] });
    // The spend forecast (Insights, the Usage tabs) is not what these tests look at: it never answers.
    api.usageApi.getUsageForecast.mockReturnValue(new Promise(() => undefined));
  });

  describe('gate', () => {
    it.each([
      ['a 401', () => fail(401), 'Login page'],
      [
        'no payment customer',
        () => Promise.resolve({ ...PAID, stripeCustomerId: null, subscriptionItemId: null }),
        'Complete setup page',
      ],
      ['no subscription item', () => Promise.resolve({ ...PAID, subscriptionItemId: null }), 'Setup success page'],
      ['hasPaid false', () => Promise.resolve({ ...PAID, hasPaid: false }), 'Billing issue page'],
    ])('sends the owner away on %s', async (_label, me, destination) => {
      api.userApi.me.mockImplementation(me);
      renderAtDashboard(<DashboardPage />);
      expect(await screen.findByRole('heading', { name: destination })).toBeInTheDocument();
      expect(api.botsApi.list).not.toHaveBeenCalled();
    });

    // Issue 27: each page loads in a skeleton of its own shape, not the bot grid everywhere.
    it.each([
      ['/dashboard', 'bots'],
      ['/dashboard/conversations', 'conversations'],
      ['/dashboard/leads', 'leads'],
      ['/dashboard/insights', 'insights'],
    ])('loads %s with the %s skeleton', (path, shape) => {
      api.userApi.me.mockImplementation(() => new Promise(() => {}));
      renderAtDashboard(<DashboardPage />, path);
      expect(screen.getByLabelText('Loading your dashboard')).toHaveAttribute('aria-busy', 'true');
      expect(screen.getByTestId(`skeleton-${shape}`)).toBeInTheDocument();
      for (const other of ['bots', 'conversations', 'leads', 'insights'].filter((s) => s !== shape)) {
        expect(screen.queryByTestId(`skeleton-${other}`)).not.toBeInTheDocument();
      }
    });

    it('shows "Error fetching user info." when the owner cannot be fetched, and retries', async () => {
      api.userApi.me.mockImplementationOnce(() => fail(500));
      renderAtDashboard(<DashboardPage />);
      expect(await screen.findByText('Error fetching user info.')).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'All Bots' })).toBeInTheDocument();
    });

    it('follows a billing code from the bots API (the state changed since the page loaded)', async () => {
      api.botsApi.list.mockImplementation(() => fail(403, 'PAYMENT_FAILED'));
      renderAtDashboard(<DashboardPage />);
      expect(await screen.findByRole('heading', { name: 'Billing issue page' })).toBeInTheDocument();
    });
  });

  it('shows All Bots with every bot card, the categories, the Add New Bot card and the feedback address', async () => {
    renderAtDashboard(<DashboardPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'All Bots' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Bots' });
    expect(within(grid).getByRole('button', { name: 'Support Bot settings' })).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: 'Sales Bot settings' })).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: 'Add New Bot' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Acme/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '+ Add Category' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'feedback@botsmith.dev' })).toHaveAttribute(
      'href',
      'mailto:feedback@botsmith.dev',
    );
    expect(screen.getByRole('button', { name: 'Settings' })).toBeInTheDocument();
  });

  it("opens Settings on Account from the monthly report's link (/dashboard?settings=account), and closing drops it", async () => {
    window.history.pushState({}, '', '/dashboard?settings=account');
    try {
      const { router } = renderAtDashboard(<DashboardPage />, '/dashboard?settings=account');
      const dialog = await screen.findByRole('dialog', { name: 'Settings' });
      expect(within(dialog).getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
      expect(await within(dialog).findByRole('switch', { name: 'Monthly report by e-mail' })).toBeChecked();
      await userEvent.click(within(dialog).getByRole('button', { name: 'Close settings' }));
      await waitFor(() => expect(router.state.location.search).toBe(''));
    } finally {
      window.history.pushState({}, '', '/');
    }
  });

  it('shows the thin "Demo mode: no real charges" bar only when the server says it runs as a demo', async () => {
    api.userApi.me.mockResolvedValue({ ...PAID, demoMode: true });
    const { unmount } = renderAtDashboard(<DashboardPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'All Bots' })).toBeInTheDocument();
    expect(screen.getByRole('note', { name: 'Demo mode' })).toHaveTextContent('Demo mode: no real charges');
    unmount();

    for (const demoMode of [false, undefined]) {
      api.userApi.me.mockResolvedValue({ ...PAID, demoMode });
      const view = renderAtDashboard(<DashboardPage />);
      expect(await screen.findByRole('heading', { level: 1, name: 'All Bots' })).toBeInTheDocument();
      expect(screen.queryByRole('note', { name: 'Demo mode' })).not.toBeInTheDocument();
      expect(screen.queryByText(/no real charges/)).not.toBeInTheDocument();
      view.unmount();
    }
  });

  it('filters the grid by category and titles it with the category name', async () => {
    renderAtDashboard(<DashboardPage />);
    await userEvent.click(await screen.findByRole('button', { name: /^Acme/ }));
    expect(screen.getByRole('heading', { level: 1, name: 'Acme' })).toBeInTheDocument();
    const grid = screen.getByRole('list', { name: 'Bots' });
    expect(within(grid).getByRole('button', { name: 'Support Bot settings' })).toBeInTheDocument();
    expect(within(grid).queryByRole('button', { name: 'Sales Bot settings' })).not.toBeInTheDocument();
  });

  it("shows 'No bots yet' to a new owner, with the Add New Bot card", async () => {
    api.botsApi.list.mockResolvedValue({ bots: [] });
    api.categoriesApi.list.mockResolvedValue({ categories: [] });
    renderAtDashboard(<DashboardPage />);
    expect(await screen.findByText('No bots yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add New Bot' })).toBeInTheDocument();
  });

  it("shows 'Error fetching bots.' when the list fails", async () => {
    api.botsApi.list.mockImplementation(() => fail(500));
    renderAtDashboard(<DashboardPage />);
    expect(await screen.findByText('Error fetching bots.')).toBeInTheDocument();
    // Not beside a count of bots it could not read (issue 27).
    expect(screen.queryByText(/^\d+ bots?$/)).not.toBeInTheDocument();
  });

  it("says '0 bots' and no error when the owner simply has none", async () => {
    api.botsApi.list.mockResolvedValue({ bots: [] });
    api.categoriesApi.list.mockResolvedValue({ categories: [] });
    renderAtDashboard(<DashboardPage />);
    expect(await screen.findByText('0 bots')).toBeInTheDocument();
    expect(screen.queryByText('Error fetching bots.')).not.toBeInTheDocument();
  });

  describe('Add New Bot', () => {
    it("requires a name: 'Bot name is required.' for spaces, and nothing is sent", async () => {
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: 'Add New Bot' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add New Bot' });
      await userEvent.type(within(dialog).getByLabelText('Bot Name'), '   ');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create Bot' }));
      expect(within(dialog).getByText('Bot name is required.')).toBeInTheDocument();
      expect(api.botsApi.create).not.toHaveBeenCalled();
    });

    it("creates the bot, toasts '{name} created successfully!', records 'Bot Created' and adds the card", async () => {
      api.botsApi.create.mockResolvedValue({ bot: { id: 3, name: 'Helper' } });
      api.botsApi.get.mockResolvedValue({ bot: makeBot({ id: 3, name: 'Helper' }) });
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: 'Add New Bot' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add New Bot' });
      expect(
        within(dialog).getByText(/It starts with a monthly budget, which you can change in its Usage tab\./),
      ).toBeInTheDocument();
      await userEvent.type(within(dialog).getByLabelText('Bot Name'), '  Helper ');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create Bot' }));

      expect(await screen.findByText('Helper created successfully!')).toBeInTheDocument();
      expect(api.botsApi.create).toHaveBeenCalledWith('Helper');
      expect(analytics.track).toHaveBeenCalledWith('Bot Created', { bot_id: 3, bot_name: 'Helper' });
      expect(await screen.findByRole('button', { name: 'Helper settings' })).toBeInTheDocument();
    });

    it('puts a bot created inside a category into that category', async () => {
      api.botsApi.create.mockResolvedValue({ bot: { id: 3, name: 'Helper' } });
      api.botsApi.update.mockResolvedValue({ bot: makeBot({ id: 3, name: 'Helper', categoryId: 10 }) });
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: /^Acme/ }));
      await userEvent.click(screen.getByRole('button', { name: 'Add New Bot' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add New Bot' });
      await userEvent.type(within(dialog).getByLabelText('Bot Name'), 'Helper');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create Bot' }));
      expect(await screen.findByRole('button', { name: 'Helper settings' })).toBeInTheDocument();
      expect(api.botsApi.update).toHaveBeenCalledWith(3, { categoryId: 10 });
    });

    it("shows 'Error creating bot.' when creation fails", async () => {
      api.botsApi.create.mockImplementation(() => Promise.reject(new ApiError(500, 'INTERNAL_ERROR', 'boom', true)));
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: 'Add New Bot' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add New Bot' });
      await userEvent.type(within(dialog).getByLabelText('Bot Name'), 'Helper');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create Bot' }));
      expect(await within(dialog).findByText('Error creating bot.')).toBeInTheDocument();
      expect(analytics.track).not.toHaveBeenCalled();
    });
  });

  describe('categories', () => {
    it("requires a name ('Category name is required.') and shows the server's sentence for a duplicate", async () => {
      api.categoriesApi.create.mockImplementation(() =>
        fail(409, 'CATEGORY_EXISTS', 'You already have a category with this name.'),
      );
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: '+ Add Category' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Category' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Add Category' }));
      expect(within(dialog).getByText('Category name is required.')).toBeInTheDocument();
      await userEvent.type(within(dialog).getByLabelText('Category Name'), 'acme');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Add Category' }));
      expect(await within(dialog).findByText('You already have a category with this name.')).toBeInTheDocument();
    });

    it('adds a category to the sidebar', async () => {
      api.categoriesApi.create.mockResolvedValue({
        message: 'Category created successfully!',
        category: { id: 11, name: 'Internal' },
      });
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: '+ Add Category' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Category' });
      await userEvent.type(within(dialog).getByLabelText('Category Name'), 'Internal');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Add Category' }));
      expect(await screen.findByRole('button', { name: /^Internal/ })).toBeInTheDocument();
    });

    it("asks 'Are you sure you want to delete this category?', deletes it and keeps its bots", async () => {
      api.categoriesApi.remove.mockResolvedValue({ message: 'Category deleted successfully!' });
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: /^Acme/ }));
      await userEvent.click(screen.getByRole('button', { name: 'Delete category Acme' }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText('Are you sure you want to delete this category?')).toBeInTheDocument();
      await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

      expect(await screen.findByText('Category deleted successfully!')).toBeInTheDocument();
      expect(api.categoriesApi.remove).toHaveBeenCalledWith(10);
      expect(await screen.findByRole('heading', { level: 1, name: 'All Bots' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Acme/ })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Support Bot settings' })).toBeInTheDocument();
    });

    it("toasts 'Error deleting category.' when deletion fails, and Cancel deletes nothing", async () => {
      api.categoriesApi.remove.mockImplementation(() => fail(500));
      renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: 'Delete category Acme' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
      expect(api.categoriesApi.remove).not.toHaveBeenCalled();
      await userEvent.click(await screen.findByRole('button', { name: 'Delete category Acme' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Error deleting category.')).toBeInTheDocument();
    });
  });

  it('moves the categories into a drawer on a phone', async () => {
    stubScreen('phone');
    renderAtDashboard(<DashboardPage />);
    await screen.findByRole('heading', { level: 1, name: 'All Bots' });
    expect(screen.queryByRole('button', { name: '+ Add Category' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    await userEvent.click(await screen.findByRole('button', { name: /^Acme/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme' })).toBeInTheDocument();
  });

  it('opens the edit modal from a card and reflects a rename on the card', async () => {
    api.botsApi.get.mockResolvedValue({ bot: makeBot({ id: 2, name: 'Sales Bot' }) });
    api.botsApi.update.mockResolvedValue({ bot: makeBot({ id: 2, name: 'Sales Pro' }) });
    renderAtDashboard(<DashboardPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sales Bot settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sales Bot' });
    const name = await within(dialog).findByLabelText(/^Name/);
    await userEvent.clear(name);
    await userEvent.type(name, 'Sales Pro');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Details' }));
    expect(await screen.findByText('Bot details updated successfully!')).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Sales Pro' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sales Pro settings' })).toBeInTheDocument());
  });

  describe('conversations', () => {
    beforeEach(() => {
      api.mailApi.usage.mockResolvedValue({ sentToday: 0, dailyLimit: 500, limitReached: false });
      api.conversationsApi.list.mockResolvedValue({ conversations: [], nextCursor: null });
      api.conversationsApi.unansweredQuestions.mockResolvedValue({ questions: [] });
    });

    it('opens Conversations from the sidebar under All Bots, and All Bots leads back', async () => {
      const { router } = renderAtDashboard(<DashboardPage />);
      await screen.findByRole('heading', { level: 1, name: 'All Bots' });
      const nav = screen.getByRole('navigation', { name: 'Bot categories' });
      const entries = within(nav)
        .getAllByRole('button')
        .map((button) => button.textContent);
      expect(entries[0]).toMatch(/^All Bots/);
      expect(entries[1]).toBe('Conversations');

      await userEvent.click(within(nav).getByRole('button', { name: 'Conversations' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/dashboard/conversations');
      expect(within(nav).getByRole('button', { name: 'Conversations' })).toHaveAttribute('aria-current', 'page');
      expect(await screen.findByText('No conversations yet')).toBeInTheDocument();
      expect(document.title).toMatch(/^Conversations/);
      // The bots stay loaded: moving between sections does not fetch the owner again.
      expect(api.userApi.me).toHaveBeenCalledTimes(1);

      await userEvent.click(within(nav).getByRole('button', { name: /^All Bots/ }));
      expect(await screen.findByRole('heading', { level: 1, name: 'All Bots' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/dashboard');
      expect(api.botsApi.list).toHaveBeenCalledTimes(1);
    });

    it('opens Insights from the sidebar, titled and marked as the current page', async () => {
      api.analyticsApi.get.mockImplementation(() => new Promise(() => {}));
      const { router } = renderAtDashboard(<DashboardPage />);
      await screen.findByRole('heading', { level: 1, name: 'All Bots' });
      const nav = screen.getByRole('navigation', { name: 'Bot categories' });
      await userEvent.click(within(nav).getByRole('button', { name: 'Insights' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Insights' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/dashboard/insights');
      expect(within(nav).getByRole('button', { name: 'Insights' })).toHaveAttribute('aria-current', 'page');
      expect(screen.getByLabelText('Loading insights')).toBeInTheDocument();
      expect(document.title).toMatch(/^Insights/);
      expect(api.analyticsApi.get).toHaveBeenCalledTimes(2);
    });

    it("links a bot's Usage tab to its unanswered questions, closing the modal", async () => {
      stubResizeObserver();
      api.botsApi.get.mockResolvedValue({ bot: makeBot({ id: 2, name: 'Sales Bot' }) });
      api.usageApi.getBotUsage.mockResolvedValue({ usageCents: 0, usageLimitDollars: 10, logsAvailable: false });
      api.usageApi.getBotUsageHistory.mockReturnValue(new Promise(() => undefined));
      const { router } = renderAtDashboard(<DashboardPage />);
      await userEvent.click(await screen.findByRole('button', { name: 'Sales Bot settings' }));
      const dialog = await screen.findByRole('dialog', { name: 'Sales Bot' });
      await userEvent.click(await within(dialog).findByRole('tab', { name: 'Usage' }));
      await userEvent.click(await within(dialog).findByRole('link', { name: 'Unanswered questions' }));

      expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toBeInTheDocument();
      expect(router.state.location.search).toBe('?view=questions&botId=2');
      expect(await screen.findByText('No unanswered questions')).toBeInTheDocument();
      expect(api.conversationsApi.unansweredQuestions).toHaveBeenCalledWith(2, '30d');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('has Conversations in the drawer on a phone', async () => {
      stubScreen('phone');
      renderAtDashboard(<DashboardPage />);
      await screen.findByRole('heading', { level: 1, name: 'All Bots' });
      await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
      await userEvent.click(await screen.findByRole('button', { name: 'Conversations' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toBeInTheDocument();
    });

    it('answers an unknown dashboard section with the not-found page', async () => {
      renderAtDashboard(<DashboardPage />, '/dashboard/constructor');
      expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
      expect(api.userApi.me).not.toHaveBeenCalled();
    });
  });
});
