import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import chatApiDoc from '../../../../docs/chat-api.md?raw';
import { makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { refusal } from '../../test/stubs';
import { DeployTab, HOST_API_EXAMPLE } from './DeployTab';
import { IDENTITY_SNIPPETS } from './VerifiedVisitorsSection';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const api = vi.hoisted(() => ({
  botsApi: { rotateApiKey: vi.fn(), identity: vi.fn(), rotateIdentitySecret: vi.fn() },
}));
vi.mock('../../api', () => api);

const identity = (secretSet: boolean, refusedThisWeek = 0) => ({ identity: { secretSet, refusedThisWeek } });
const SECRET = 'idsec_'.padEnd(48, 'k') + 'X7';

beforeEach(() => {
  vi.resetAllMocks();
  api.botsApi.identity.mockResolvedValue(identity(false));
});

const KEY = 'bsk_live_'.padEnd(40, 'q') + 'Z9k2';

afterEach(() => vi.restoreAllMocks());

function renderTab() {
  const onSaved = vi.fn();
  renderAtDashboard(<DeployTab bot={makeBot({ id: 12, apiKey: KEY })} onSaved={onSaved} />);
  return { onSaved };
}

// Issue 27: Deploy shows the snippet at once with copy buttons, and the API key masked with show/copy.
describe('DeployTab', () => {
  it('shows the snippet at once, with no Generate Code step', () => {
    renderTab();
    expect(screen.getByLabelText('Embed snippet')).toHaveTextContent(
      `<script src="${window.location.origin}/widget.js" data-bot-id="12" async></script>`,
    );
    expect(screen.queryByRole('button', { name: 'Generate Code' })).not.toBeInTheDocument();
  });

  it('copies the host-page example with its own button', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderTab();
    await user.click(screen.getByRole('button', { name: 'Copy example' }));
    expect(writeText).toHaveBeenCalledWith(HOST_API_EXAMPLE);
    expect(await screen.findByText('Example copied to clipboard!')).toBeInTheDocument();
  });

  it('masks the API key but its last 4 characters; Show reveals it, Hide masks it again', async () => {
    const user = userEvent.setup();
    renderTab();
    const field = screen.getByLabelText('API key');
    expect(field).toHaveValue(`${'•'.repeat(24)}Z9k2`);
    expect(document.body).not.toHaveTextContent(KEY);
    await user.click(screen.getByRole('button', { name: 'Show API key' }));
    expect(field).toHaveValue(KEY);
    await user.click(screen.getByRole('button', { name: 'Hide API key' }));
    expect(field).toHaveValue(`${'•'.repeat(24)}Z9k2`);
  });

  it('copies the whole key while it stays masked', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderTab();
    await user.click(screen.getByRole('button', { name: 'Copy API key' }));
    expect(writeText).toHaveBeenCalledWith(KEY);
    expect(await screen.findByText('API key copied to clipboard!')).toBeInTheDocument();
    expect(screen.getByLabelText('API key')).not.toHaveValue(KEY);
  });

  it("says 'Failed to copy the API key.' when the clipboard refuses", async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    renderTab();
    await user.click(screen.getByRole('button', { name: 'Copy API key' }));
    expect(await screen.findByText('Failed to copy the API key.')).toBeInTheDocument();
  });
});

// Issue 28.1: verified visitors in the Deploy tab.
describe('DeployTab: verified visitors', () => {
  it('reads the status of this bot; no secret yet offers "Create identity secret" and says nothing of refusals', async () => {
    renderTab();
    expect(await screen.findByText('No identity secret yet.')).toBeInTheDocument();
    expect(api.botsApi.identity).toHaveBeenCalledWith(12, expect.any(AbortSignal));
    expect(screen.getByRole('button', { name: 'Create identity secret' })).toBeInTheDocument();
    expect(screen.queryByText(/refused this week/)).not.toBeInTheDocument();
  });

  it('creates the first secret at once, shows it this once with a warning and copies it', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    api.botsApi.rotateIdentitySecret.mockResolvedValue({ identitySecret: SECRET });
    const first = renderAtDashboard(<DeployTab bot={makeBot({ id: 12, apiKey: KEY })} onSaved={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Create identity secret' }));
    expect(api.botsApi.rotateIdentitySecret).toHaveBeenCalledWith(12);
    expect(await screen.findByLabelText('New identity secret')).toHaveValue(SECRET);
    expect(
      screen.getByText('Copy this secret now: it will not be shown again. If you lose it, rotate it.'),
    ).toBeVisible();
    expect(screen.getByText('An identity secret is set.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rotate secret' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy identity secret' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await screen.findByText('Identity secret copied to clipboard!')).toBeInTheDocument();
    // Once: opened again, the tab knows a secret is set but has no way to show it.
    first.unmount();
    api.botsApi.identity.mockResolvedValue(identity(true));
    renderTab();
    expect(await screen.findByText('An identity secret is set.')).toBeInTheDocument();
    expect(screen.queryByLabelText('New identity secret')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(SECRET);
  });

  it('asks before rotating: Cancel rotates nothing, "Yes, Rotate Secret" shows the new one', async () => {
    const user = userEvent.setup();
    api.botsApi.identity.mockResolvedValue(identity(true));
    api.botsApi.rotateIdentitySecret.mockResolvedValue({ identitySecret: SECRET });
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    expect(screen.getByText(/Tokens signed with the current secret stop working at once/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.botsApi.rotateIdentitySecret).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    await user.click(screen.getByRole('button', { name: 'Yes, Rotate Secret' }));
    expect(await screen.findByLabelText('New identity secret')).toHaveValue(SECRET);
    expect(api.botsApi.rotateIdentitySecret).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/stop working at once/)).not.toBeInTheDocument();
  });

  it("shows the server's message when the rotation fails, and no secret", async () => {
    const user = userEvent.setup();
    api.botsApi.rotateIdentitySecret.mockImplementation(() => refusal(404, 'Bot not found', 'NOT_FOUND'));
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Create identity secret' }));
    expect(await screen.findByText('Bot not found')).toBeInTheDocument();
    expect(screen.queryByLabelText('New identity secret')).not.toBeInTheDocument();
  });

  it('counts the identity tokens refused this week', async () => {
    api.botsApi.identity.mockResolvedValue(identity(true, 12));
    renderTab();
    expect(await screen.findByText(/12 identity tokens refused this week/)).toBeInTheDocument();
  });

  it('shows the Node, Python and PHP snippets of docs/chat-api.md and the identify call for the page', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderTab();
    const languages = within(await screen.findByRole('tablist', { name: 'Server language' }));
    for (const name of ['Node', 'Python', 'PHP'] as const) {
      // The same text as the API-key path's documentation.
      expect(chatApiDoc).toContain(IDENTITY_SNIPPETS[name]);
      await user.click(languages.getByRole('tab', { name }));
      expect(screen.getByLabelText(`${name} snippet`).textContent).toBe(IDENTITY_SNIPPETS[name]);
    }
    expect(IDENTITY_SNIPPETS.Node).toContain("createHmac('sha256', secret)");
    await user.click(screen.getByRole('button', { name: 'Copy snippet' }));
    expect(writeText).toHaveBeenCalledWith(IDENTITY_SNIPPETS.PHP);
    expect(screen.getByLabelText('Identify call')).toHaveTextContent('Botsmith.identify({ token })');
  });

  it("says which {{visitor.*}} placeholders the bot's prompt may use, and that they are empty for anyone else", async () => {
    renderTab();
    const heading = await screen.findByRole('heading', { name: 'Use it in the prompt' });
    const text = heading.nextElementSibling?.textContent ?? '';
    expect(text).toBe(
      "In the bot's prompt (Prompting tab), {{visitor.name}}, {{visitor.email}} and {{visitor.plan}} (any value of " +
        "the token) become the verified visitor's own. For anyone not verified they are left empty, so write the " +
        'prompt to read well either way.',
    );
  });
});
