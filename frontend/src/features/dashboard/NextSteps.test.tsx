import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBot } from '../../test/fixtures';
import { NextSteps, nextStepsDismissedKey } from './NextSteps';

const api = vi.hoisted(() => ({ conversationsApi: { onboarding: vi.fn() } }));
vi.mock('../../api', () => api);

beforeEach(() => {
  vi.clearAllMocks();
  window.localStorage.clear();
});

const steps = () => within(screen.getByRole('region', { name: 'Next steps' })).getAllByRole('listitem');

// Issue 27, item 7: a "next steps" checklist on a new account, ticked from real state.
describe('NextSteps', () => {
  it('ticks each step from the account state and opens the bot on the tab where the step is done', async () => {
    api.conversationsApi.onboarding.mockResolvedValue({ hasKnowledge: true, hasConversation: false, onSite: false });
    const onOpenBot = vi.fn();
    const onAddBot = vi.fn();
    const user = userEvent.setup();
    render(<NextSteps accountId={7} bots={[makeBot({ id: 41 })]} onOpenBot={onOpenBot} onAddBot={onAddBot} />);

    await screen.findByText('1 of 3 done');
    const [knowledge, tryIt, onSite] = steps();
    expect(knowledge).toHaveAttribute('data-done', 'true');
    expect(within(knowledge).getByLabelText('Done')).toBeInTheDocument();
    expect(within(knowledge).queryByRole('button')).not.toBeInTheDocument();
    expect(tryIt).toHaveAttribute('data-done', 'false');

    await user.click(within(tryIt).getByRole('button', { name: 'Open the preview' }));
    expect(onOpenBot).toHaveBeenLastCalledWith(41, 'styling');
    await user.click(within(onSite).getByRole('button', { name: 'Get the snippet' }));
    expect(onOpenBot).toHaveBeenLastCalledWith(41, 'deploy');
    expect(onAddBot).not.toHaveBeenCalled();
    // Clicking does not tick anything: only the account's state does.
    expect(screen.getByText('1 of 3 done')).toBeInTheDocument();
  });

  it('asks for a bot first when there is none', async () => {
    api.conversationsApi.onboarding.mockResolvedValue({ hasKnowledge: false, hasConversation: false, onSite: false });
    const onOpenBot = vi.fn();
    const onAddBot = vi.fn();
    const user = userEvent.setup();
    render(<NextSteps accountId={7} bots={[]} onOpenBot={onOpenBot} onAddBot={onAddBot} />);
    await screen.findByText('0 of 3 done');
    await user.click(within(steps()[0]).getByRole('button', { name: 'Add a bot first' }));
    expect(onAddBot).toHaveBeenCalledTimes(1);
    expect(onOpenBot).not.toHaveBeenCalled();
  });

  it('is gone once all three are done', async () => {
    api.conversationsApi.onboarding.mockResolvedValue({ hasKnowledge: true, hasConversation: true, onSite: true });
    render(<NextSteps accountId={7} bots={[makeBot()]} onOpenBot={vi.fn()} onAddBot={vi.fn()} />);
    await waitFor(() => expect(api.conversationsApi.onboarding).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('region', { name: 'Next steps' })).not.toBeInTheDocument();
  });

  it('stays dismissed for that account only, without asking the API again', async () => {
    api.conversationsApi.onboarding.mockResolvedValue({ hasKnowledge: false, hasConversation: false, onSite: false });
    const user = userEvent.setup();
    const first = render(<NextSteps accountId={7} bots={[makeBot()]} onOpenBot={vi.fn()} onAddBot={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Dismiss next steps' }));
    expect(screen.queryByRole('region', { name: 'Next steps' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(nextStepsDismissedKey(7))).toBe('1');
    first.unmount();

    api.conversationsApi.onboarding.mockClear();
    const again = render(<NextSteps accountId={7} bots={[makeBot()]} onOpenBot={vi.fn()} onAddBot={vi.fn()} />);
    expect(screen.queryByRole('region', { name: 'Next steps' })).not.toBeInTheDocument();
    expect(api.conversationsApi.onboarding).not.toHaveBeenCalled();
    again.unmount();

    // Another account on the same browser still sees its own list.
    render(<NextSteps accountId={8} bots={[makeBot()]} onOpenBot={vi.fn()} onAddBot={vi.fn()} />);
    expect(await screen.findByRole('region', { name: 'Next steps' })).toBeInTheDocument();
  });

  it('stays away when the state cannot be read', async () => {
    api.conversationsApi.onboarding.mockRejectedValue(new Error('500'));
    render(<NextSteps accountId={7} bots={[makeBot()]} onOpenBot={vi.fn()} onAddBot={vi.fn()} />);
    await waitFor(() => expect(api.conversationsApi.onboarding).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('region', { name: 'Next steps' })).not.toBeInTheDocument();
  });
});
