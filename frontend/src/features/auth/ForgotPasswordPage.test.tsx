import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, authApi } from '../../api';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { renderAuthPage } from '../../test/render';
import { deferred } from '../../test/stubs';

async function request(email = 'Owner@Example.com') {
  const user = userEvent.setup({ delay: null });
  renderAuthPage('/forgot-password', <ForgotPasswordPage />);
  await user.type(screen.getByLabelText(/^Email/), email);
  await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('ForgotPasswordPage', () => {
  it("sends the e-mail lowercased, shows 'Loading...', then the server's message instead of the form", async () => {
    const pending = deferred<{ message: string }>();
    const fetchMock = vi
      .fn()
      .mockReturnValue(pending.promise.then((body) => new Response(JSON.stringify(body), { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    await request(' Owner@Example.COM ');
    expect(screen.getByRole('button', { name: 'Loading...' })).toBeDisabled();
    pending.resolve({ message: 'If an account exists for that email, we have sent a link.' });
    expect(await screen.findByText('If an account exists for that email, we have sent a link.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Email/)).not.toBeInTheDocument();
    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/auth/forgot-password');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'owner@example.com' });
  });

  it("shows 'Check your email for reset instructions.' when the server gives no message", async () => {
    vi.spyOn(authApi, 'forgotPassword').mockResolvedValue({ message: '' });
    await request();
    expect(await screen.findByText('Check your email for reset instructions.')).toBeInTheDocument();
  });

  it("shows 'Error: ' plus the message on failure", async () => {
    vi.spyOn(authApi, 'forgotPassword').mockRejectedValue(
      new ApiError(429, 'RATE_LIMITED', 'Too many requests for this email address.', true),
    );
    await request();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Too many requests for this email address.');
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
  });
});
