import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BotResponse } from '../../api/types';
import { StylingTab } from './StylingTab';
import { renderAtDashboard } from '../../test/render';
import { makeBot } from '../../test/fixtures';
import { stubScreen } from '../../test/stubs';

vi.setConfig({ testTimeout: 30_000 });

const api = vi.hoisted(() => ({
  botsApi: { update: vi.fn() },
  uploadsApi: { uploadIcon: vi.fn() },
}));
vi.mock('../../api', () => api);

function renderTab(bot: BotResponse = makeBot()) {
  api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
    Promise.resolve({ bot: { ...bot, ...changes } }),
  );
  return renderAtDashboard(<StylingTab bot={bot} onSaved={vi.fn()} />);
}

/** The warning's entry of a failing pair, by its label ("Banner title"). */
function failing(label: string): HTMLElement {
  const alert = screen.getByRole('alert');
  const item = within(alert)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.startsWith(label));
  if (!item) throw new Error(`${label} is not listed as failing`);
  return item;
}

async function savedStyling(): Promise<Record<string, string>> {
  await userEvent.click(screen.getByRole('button', { name: 'Save Styling' }));
  await waitFor(() => expect(api.botsApi.update).toHaveBeenCalled());
  return (api.botsApi.update.mock.calls[0] as [number, Record<string, string>])[1];
}

describe('StylingTab', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    stubScreen('phone');
  });

  it('says the default colours fail AA: white on #2ecc71 is 2.1:1 on the banner, the launcher and the send arrow', async () => {
    renderTab();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('3 colour pairs are hard to read')).toBeInTheDocument();
    expect(failing('Banner title')).toHaveTextContent('Banner title: 2.1:1, needs 4.5:1 for text.');
    expect(failing('Launcher icon')).toHaveTextContent('Launcher icon: 2.1:1, needs 3.0:1 for an icon.');
    expect(failing('Send arrow')).toHaveTextContent('Send arrow: 2.1:1, needs 3.0:1 for an icon.');
    const passing = screen.getByLabelText('Pairs that pass');
    expect(within(passing).getByText(/Bot messages/)).toBeInTheDocument();
    expect(within(passing).getByText(/Placeholder text/)).toBeInTheDocument();
    // The defaults stay as they are: nothing changes until the owner clicks a fix.
    expect(api.botsApi.update).not.toHaveBeenCalled();
  });

  it('fixes the banner with one click by black text, and saves that', async () => {
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Banner title: Use black text' }));
    await waitFor(() => expect(within(screen.getByRole('alert')).queryByText(/^Banner title/)).toBeNull());
    expect(screen.getByText('2 colour pairs are hard to read')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Pairs that pass')).getByText(/Banner title 9\.\d:1/)).toBeInTheDocument();
    const sent = await savedStyling();
    expect(sent.bannerTextColor).toBe('linear-gradient(to right, #000000, #000000)');
    expect(sent.bannerColor).toBe('linear-gradient(to right, #2ecc71, #2ecc71)');
  });

  it('or keeps white text and darkens the background just enough, keeping it green', async () => {
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Send arrow: Darken the background' }));
    await waitFor(() => expect(within(screen.getByRole('alert')).queryByText(/^Send arrow/)).toBeNull());
    const sent = await savedStyling();
    expect(sent.sendArrowColor).toBe('linear-gradient(to right, #ffffff, #ffffff)');
    const [, hex] = /, (#[0-9a-f]{6}),/.exec(sent.sendButtonColor) ?? [];
    expect(hex).toBeDefined();
    expect(hex).not.toBe('#2ecc71');
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
  });

  it('says every pair passes once all are fixed', async () => {
    renderTab(
      makeBot({
        bannerTextColor: 'linear-gradient(to right, #000000, #000000)',
        bubbleTextColor: 'linear-gradient(to right, #000000, #000000)',
        sendArrowColor: 'linear-gradient(to right, #000000, #000000)',
      }),
    );
    expect(
      await screen.findByText('Every text and icon of the widget is readable on its background.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/hard to read/)).toBeNull();
  });

  it('checks a gradient at its worst stop', async () => {
    renderTab(
      makeBot({
        bannerColor: 'linear-gradient(135deg, #000000, #ffffff)',
        bannerTextColor: 'linear-gradient(to right, #ffffff, #ffffff)',
      }),
    );
    expect(await screen.findByText(/^Banner title/)).toBeInTheDocument();
    expect(failing('Banner title')).toHaveTextContent('Banner title: 1.0:1, needs 4.5:1 for text.');
  });
});

describe('Colour fields', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    stubScreen('phone');
  });

  it('shows a solid colour as one field with its whole hex value, and no direction', async () => {
    renderTab();
    const group = await screen.findByRole('group', { name: 'Banner colour' });
    expect(within(group).getByLabelText('Banner colour')).toHaveValue('#2ecc71');
    expect(within(group).queryByRole('combobox')).toBeNull();
    expect(within(group).queryByLabelText('Banner colour end colour')).toBeNull();
    expect(within(group).getByRole('checkbox', { name: 'Use a gradient' })).not.toBeChecked();
  });

  it('"Use a gradient" shows direction and two colours; unticking makes it solid again', async () => {
    renderTab();
    const group = await screen.findByRole('group', { name: 'Banner colour' });
    await userEvent.click(within(group).getByRole('checkbox', { name: 'Use a gradient' }));
    fireEvent.change(within(group).getByLabelText('Banner colour end colour'), { target: { value: '#123456' } });
    expect(within(group).getByRole('combobox')).toBeInTheDocument();
    await userEvent.click(within(group).getByRole('checkbox', { name: 'Use a gradient' }));
    expect(within(group).queryByLabelText('Banner colour end colour')).toBeNull();
    const sent = await savedStyling();
    expect(sent.bannerColor).toBe('linear-gradient(to right, #2ecc71, #2ecc71)');
  });

  it('opens a stored gradient as a gradient, and a solid colour typed by hand sets both stops', async () => {
    renderTab(makeBot({ bubbleColor: 'linear-gradient(to bottom, #ff0000, #0000ff)' }));
    const bubble = await screen.findByRole('group', { name: 'Bubble colour' });
    expect(within(bubble).getByRole('checkbox', { name: 'Use a gradient' })).toBeChecked();
    expect(within(bubble).getByLabelText('Bubble colour end colour')).toHaveValue('#0000ff');
    const banner = screen.getByRole('group', { name: 'Banner colour' });
    fireEvent.change(within(banner).getByLabelText('Banner colour'), { target: { value: '#1a7f4b' } });
    const sent = await savedStyling();
    expect(sent.bannerColor).toBe('linear-gradient(to right, #1a7f4b, #1a7f4b)');
    expect(sent.bubbleColor).toBe('linear-gradient(to bottom, #ff0000, #0000ff)');
  });
});
