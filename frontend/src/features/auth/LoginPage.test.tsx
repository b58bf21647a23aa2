import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { identify, setPeople, track } from '../../analytics/analytics';
import { ApiError, authApi, userApi } from '../../api';
import type { CurrentUser } from '../../api/types';
import { LoginPage } from './LoginPage';
import { renderAuthPage } from '../../test/render';
import { deferred } from '../../test/stubs';

vi.mock('../../analytics/analytics', () => ({ track: vi.fn(), identify: vi.fn(), setPeople: vi.fn() }));

const signedOut = () => new ApiError(401, 'UNAUTHORIZED', 'Please sign in.', true);

function me(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 7,
    email: 'owner@example.com',
    hasPaid: null,
    stripeCustomerId: null,
    subscriptionItemId: null,
    ...overrides,
  };
}

async function logIn(email = 'Owner@Example.com', password = 'Sunny!Day7') {
  const user = userEvent.setup({ delay: null });
  const view = renderAuthPage('/login', <LoginPage />);
  await user.type(screen.getByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Log In' }));
  return view;
}

beforeEach(() => vi.clearAllMocks());
afterEach(() => vi.restoreAllMocks());

describe('LoginPage', () => {
  it('goes to /dashboard on load when a session already exists', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me({ stripeCustomerId: 'cus', subscriptionItemId: 'si', hasPaid: true }));
    const { router } = renderAuthPage('/login', <LoginPage />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('also works at /signin', async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(signedOut());
    renderAuthPage('/signin', <LoginPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Log In' })).toBeInTheDocument();
  });

  it.each([
    ['hasPaid false', { hasPaid: false, stripeCustomerId: 'cus', subscriptionItemId: 'si' }, '/billing-issue'],
    [
      'customer and subscription item',
      { hasPaid: true, stripeCustomerId: 'cus', subscriptionItemId: 'si' },
      '/dashboard',
    ],
    ['customer only', { stripeCustomerId: 'cus' }, '/setup-success'],
    ['no customer', {}, '/complete-setup'],
  ])('after login with %s goes to %s', async (_, overrides, destination) => {
    vi.spyOn(userApi, 'me').mockRejectedValueOnce(signedOut()).mockResolvedValue(me(overrides));
    const login = vi.spyOn(authApi, 'login').mockResolvedValue({ message: 'Logged in successfully.' });
    const { router } = await logIn();
    await waitFor(() => expect(router.state.location.pathname).toBe(destination));
    expect(login).toHaveBeenCalledWith({ email: 'Owner@Example.com', password: 'Sunny!Day7' });
    expect(identify).toHaveBeenCalledWith(7);
    expect(setPeople).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'owner@example.com', lastLoginAt: expect.any(String) }),
    );
  });

  it("shows 'Loading...' while signing in", async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(signedOut());
    vi.spyOn(authApi, 'login').mockReturnValue(deferred<{ message: string }>().promise);
    await logIn();
    expect(screen.getByRole('button', { name: 'Loading...' })).toBeDisabled();
  });

  it("shows the server's error text", async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(signedOut());
    vi.spyOn(authApi, 'login').mockRejectedValue(
      new ApiError(403, 'EMAIL_NOT_VERIFIED', 'Please verify your email before logging in.', true),
    );
    const { router } = await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your email before logging in.');
    expect(router.state.location.pathname).toBe('/login');
  });

  it("falls back to 'Login failed: please check your credentials.' when the server gives no text", async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(signedOut());
    vi.spyOn(authApi, 'login').mockRejectedValue(new ApiError(401, 'HTTP_401', 'Please sign in.', false));
    await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed: please check your credentials.');
  });

  it("shows 'Error: ' plus the message on a network failure", async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(signedOut());
    vi.spyOn(authApi, 'login').mockRejectedValue(new ApiError(0, 'NETWORK_ERROR', 'Failed to fetch', false));
    await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Failed to fetch');
    expect(screen.getByRole('button', { name: 'Log In' })).toBeEnabled();
  });

  it('checks the e-mail format before sending', async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(signedOut());
    const login = vi.spyOn(authApi, 'login');
    await logIn('not-an-email');
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(login).not.toHaveBeenCalled();
  });

  it("links to /forgot-password and to /signup, recording the 'Login Page: Sign Up' CTA", async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(signedOut());
    const user = userEvent.setup({ delay: null });
    const { router } = renderAuthPage('/login', <LoginPage />);
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute('href', '/forgot-password');
    await user.click(screen.getByRole('link', { name: 'Sign up' }));
    expect(track).toHaveBeenCalledWith('CTA Clicked', { cta_name: 'Login Page: Sign Up' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup'));
  });
});
