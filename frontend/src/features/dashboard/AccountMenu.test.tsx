import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAtDashboard } from '../../test/render';
import { AccountMenu } from './AccountMenu';

const api = vi.hoisted(() => ({ authApi: { logout: vi.fn() } }));
vi.mock('../../api', () => api);

beforeEach(() => vi.clearAllMocks());

// Issue 27: Sign out in an account menu of the dashboard header, not only inside Settings.
describe('AccountMenu', () => {
  it('shows the e-mail, opens Settings, and signs out to /login', async () => {
    api.authApi.logout.mockResolvedValue({});
    const onOpenSettings = vi.fn();
    const user = userEvent.setup();
    const { router } = renderAtDashboard(<AccountMenu email="owner@example.com" onOpenSettings={onOpenSettings} />);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Account menu (owner@example.com)' }));
    expect(screen.getByRole('menu')).toHaveTextContent('Signed in as owner@example.com');
    expect(api.authApi.logout).not.toHaveBeenCalled();

    await user.click(screen.getByRole('menuitem', { name: 'Settings' }));
    expect(onOpenSettings).toHaveBeenCalledTimes(1);
    expect(api.authApi.logout).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Account menu (owner@example.com)' }));
    await user.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    expect(api.authApi.logout).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('still goes to /login when the session had already ended', async () => {
    api.authApi.logout.mockRejectedValue(new Error('401'));
    const user = userEvent.setup();
    const { router } = renderAtDashboard(<AccountMenu email="owner@example.com" onOpenSettings={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Account menu (owner@example.com)' }));
    await user.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
