import { screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, authApi } from '../../api';
import { deferred, renderAuthPage } from './renderAuthPage';
import { VerifyEmailPage } from './VerifyEmailPage';

const open = () =>
  renderAuthPage(
    '/verify-email/:token',
    <StrictMode>
      <VerifyEmailPage />
    </StrictMode>,
    '/verify-email/tok_abc',
  );

afterEach(() => vi.restoreAllMocks());

describe('VerifyEmailPage', () => {
  it("shows 'Verifying...', spends the link once, then the message and /dashboard after 3 s", async () => {
    const pending = deferred<{ message: string }>();
    const verify = vi.spyOn(authApi, 'verifyEmail').mockReturnValue(pending.promise);
    const timeouts = vi.spyOn(window, 'setTimeout');
    const { router } = open();
    expect(screen.getByRole('heading', { level: 1, name: 'Verifying...' })).toBeInTheDocument();

    pending.resolve({ message: 'Your email has been verified. You are now signed in.' });
    expect(await screen.findByText('Your email has been verified. You are now signed in.')).toBeInTheDocument();
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledWith('tok_abc');
    // The redirect is scheduled by an effect after the message renders, so wait for it.
    await waitFor(() => expect(timeouts).toHaveBeenCalledWith(expect.any(Function), 3000));
    expect(router.state.location.pathname).toBe('/verify-email/tok_abc');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 4000 });
  });

  it("shows the server's error and goes to /login after 3 s", async () => {
    vi.spyOn(authApi, 'verifyEmail').mockRejectedValue(
      new ApiError(400, 'INVALID_TOKEN', 'This verification link is invalid or has expired.', true),
    );
    const { router } = open();
    expect(await screen.findByText('This verification link is invalid or has expired.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 4000 });
  });

  it("shows 'Error: ' plus the message on a network failure", async () => {
    vi.spyOn(authApi, 'verifyEmail').mockRejectedValue(new ApiError(0, 'NETWORK_ERROR', 'Failed to fetch', false));
    open();
    expect(await screen.findByText('Error: Failed to fetch')).toBeInTheDocument();
  });
});
