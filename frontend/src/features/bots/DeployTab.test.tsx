import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { DeployTab, HOST_API_EXAMPLE } from './DeployTab';

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
