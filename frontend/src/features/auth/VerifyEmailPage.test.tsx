import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, authApi } from '../../api';
import { renderAuthPage } from '../../test/render';
import { deferred } from '../../test/stubs';
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

  describe('opened in another browser than the signup (409 PASSWORD_CONFIRMATION_REQUIRED)', () => {
    const QUESTION =
      'This link was opened in a different browser from the one used to sign up. Enter the password you chose when you signed up to verify your email.';
    const askForPassword = () =>
      vi
        .spyOn(authApi, 'verifyEmail')
        .mockRejectedValue(new ApiError(409, 'PASSWORD_CONFIRMATION_REQUIRED', QUESTION, true));

    it('asks for the password with one field and a button, and stays on the page', async () => {
      askForPassword();
      const timeouts = vi.spyOn(window, 'setTimeout');
      const { router } = open();
      expect(await screen.findByRole('heading', { level: 1, name: 'Confirm your password' })).toBeInTheDocument();
      expect(screen.getByText(QUESTION)).toBeInTheDocument();
      expect(document.querySelectorAll('input')).toHaveLength(1);
      expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
      expect(screen.getByLabelText(/^Password/)).toHaveAttribute('autocomplete', 'current-password');
      expect(screen.getByRole('button', { name: 'Verify Email' })).toBeInTheDocument();
      expect(timeouts).not.toHaveBeenCalledWith(expect.any(Function), 3000);
      expect(router.state.location.pathname).toBe('/verify-email/tok_abc');
    });

    it('sends the password, then shows the success message and goes to /dashboard after 3 s', async () => {
      askForPassword();
      const pending = deferred<{ message: string }>();
      const confirm = vi.spyOn(authApi, 'verifyEmailWithPassword').mockReturnValue(pending.promise);
      const { router } = open();
      await userEvent.type(await screen.findByLabelText(/^Password/), 'Sunny!Day7');
      await userEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
      expect(confirm).toHaveBeenCalledWith('tok_abc', 'Sunny!Day7');
      expect(screen.getByRole('button', { name: 'Loading...' })).toBeDisabled();

      pending.resolve({ message: 'Your email has been verified. You are now signed in.' });
      expect(await screen.findByText('Your email has been verified. You are now signed in.')).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Email verified' })).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 4000 });
      expect(confirm).toHaveBeenCalledTimes(1);
    });

    it('asks for the password before sending anything when the field is empty', async () => {
      askForPassword();
      const confirm = vi.spyOn(authApi, 'verifyEmailWithPassword');
      open();
      await userEvent.click(await screen.findByRole('button', { name: 'Verify Email' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your password.');
      expect(confirm).not.toHaveBeenCalled();
    });

    it("shows the server's sentence for a wrong password and lets the person try again", async () => {
      askForPassword();
      const confirm = vi
        .spyOn(authApi, 'verifyEmailWithPassword')
        .mockRejectedValueOnce(
          new ApiError(
            400,
            'INVALID_CREDENTIALS',
            'That is not the password chosen when signing up with this link.',
            true,
          ),
        )
        .mockResolvedValueOnce({ message: 'Your email has been verified. You are now signed in.' });
      const { router } = open();
      const field = await screen.findByLabelText(/^Password/);
      await userEvent.type(field, 'Wrong!pass1');
      await userEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'That is not the password chosen when signing up with this link.',
      );
      expect(router.state.location.pathname).toBe('/verify-email/tok_abc');

      await userEvent.clear(field);
      await userEvent.type(field, 'Sunny!Day7');
      await userEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
      expect(await screen.findByText('Your email has been verified. You are now signed in.')).toBeInTheDocument();
      expect(confirm).toHaveBeenLastCalledWith('tok_abc', 'Sunny!Day7');
    });

    it('ends like a failed verification (/login after 3 s) when the link died meanwhile', async () => {
      askForPassword();
      vi.spyOn(authApi, 'verifyEmailWithPassword').mockRejectedValue(
        new ApiError(400, 'INVALID_TOKEN', 'This verification link is invalid or has expired.', true),
      );
      const { router } = open();
      await userEvent.type(await screen.findByLabelText(/^Password/), 'Sunny!Day7');
      await userEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
      expect(await screen.findByText('This verification link is invalid or has expired.')).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Verification failed' })).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 4000 });
    });
  });
});
