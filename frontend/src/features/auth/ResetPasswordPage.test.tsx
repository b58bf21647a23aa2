import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, authApi } from '../../api';
import { renderAuthPage } from '../../test/render';
import { ResetPasswordPage } from './ResetPasswordPage';

const HINT = 'Minimum 8 characters, including one uppercase letter, one lowercase letter, and one special character';

async function reset(password = 'Fresh!Pass1', confirm = password) {
  const user = userEvent.setup({ delay: null });
  const view = renderAuthPage('/reset-password/:token', <ResetPasswordPage />, '/reset-password/tok_123');
  await user.type(screen.getByLabelText(/^New Password/), password);
  await user.type(screen.getByLabelText(/^Confirm Password/), confirm);
  await user.click(screen.getByRole('button', { name: 'Reset Password' }));
  return view;
}

afterEach(() => vi.restoreAllMocks());

describe('ResetPasswordPage', () => {
  it('shows the hint under New Password', () => {
    renderAuthPage('/reset-password/:token', <ResetPasswordPage />, '/reset-password/tok_123');
    expect(screen.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeInTheDocument();
    expect(screen.getByText(HINT)).toBeInTheDocument();
  });

  it("refuses different passwords with 'Passwords do not match.'", async () => {
    const call = vi.spyOn(authApi, 'resetPassword');
    await reset('Fresh!Pass1', 'Fresh!Pass2');
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match.');
    expect(call).not.toHaveBeenCalled();
  });

  it('refuses a password outside the pattern with the hint', async () => {
    const call = vi.spyOn(authApi, 'resetPassword');
    await reset('alllowercase');
    expect(screen.getByRole('alert')).toHaveTextContent(HINT);
    expect(call).not.toHaveBeenCalled();
  });

  it('sends the token, shows the message and goes to /login after 2000 ms', async () => {
    const timeouts = vi.spyOn(window, 'setTimeout');
    const call = vi.spyOn(authApi, 'resetPassword').mockResolvedValue({ message: 'Your password has been reset.' });
    const { router } = await reset();
    expect(await screen.findByText('Your password has been reset.')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith('tok_123', 'Fresh!Pass1');
    expect(router.state.location.pathname).toBe('/reset-password/tok_123');
    // The redirect is scheduled by an effect after the message renders, so wait for it.
    await waitFor(() => expect(timeouts).toHaveBeenCalledWith(expect.any(Function), 2000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 3000 });
  });

  it("shows the server's error text", async () => {
    vi.spyOn(authApi, 'resetPassword').mockRejectedValue(
      new ApiError(400, 'INVALID_TOKEN', 'This password reset link is invalid or has expired.', true),
    );
    await reset();
    expect(await screen.findByRole('alert')).toHaveTextContent('This password reset link is invalid or has expired.');
  });

  it("falls back to 'Error resetting password.' without server text", async () => {
    vi.spyOn(authApi, 'resetPassword').mockRejectedValue(
      new ApiError(500, 'HTTP_500', 'The server had a problem.', false),
    );
    await reset();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error resetting password.');
  });

  it("shows 'Error: ' plus the message on a network failure", async () => {
    vi.spyOn(authApi, 'resetPassword').mockRejectedValue(new ApiError(0, 'NETWORK_ERROR', 'Failed to fetch', false));
    await reset();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Failed to fetch');
  });
});
