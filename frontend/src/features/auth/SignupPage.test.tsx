import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { identify, setPeople, track } from '../../analytics/analytics';
import { ApiError, authApi } from '../../api';
import { renderAuthPage } from '../../test/render';
import { deferred } from '../../test/stubs';
import { SignupPage } from './SignupPage';

vi.mock('../../analytics/analytics', () => ({ track: vi.fn(), identify: vi.fn(), setPeople: vi.fn() }));

const HINT = 'Minimum 8 characters, including one uppercase letter, one lowercase letter, and one special character';
const SERVER_MESSAGE = 'Account created. Please check your email to verify your account.';

interface FillOptions {
  email?: string;
  password?: string;
  confirm?: string;
  agree?: boolean;
}

async function fill(options: FillOptions = {}) {
  const { email = 'Owner@Example.com', password = 'Sunny!Day7', agree = true } = options;
  const confirm = options.confirm ?? password;
  const user = userEvent.setup({ delay: null });
  renderAuthPage('/signup', <SignupPage />);
  if (email) await user.type(screen.getByLabelText(/^Email/), email);
  if (password) await user.type(screen.getByLabelText(/^Password/), password);
  if (confirm) await user.type(screen.getByLabelText(/^Confirm Password/), confirm);
  if (agree) await user.click(screen.getByRole('checkbox'));
  return user;
}

const submit = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Sign Up' }));

beforeEach(() => vi.clearAllMocks());
afterEach(() => vi.restoreAllMocks());

describe('SignupPage', () => {
  it('shows the fields, the password hint, the terms links and the way to log in', () => {
    renderAuthPage('/signup', <SignupPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByText(HINT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    expect(screen.getByRole('link', { name: 'Already a member? Log in' })).toHaveAttribute('href', '/login');
  });

  // Each field is marked with its own message, all at once (issue 27: no more one banner at a time).
  it('requires the terms checkbox, marking the checkbox itself', async () => {
    const signup = vi.spyOn(authApi, 'signup');
    const user = await fill({ agree: false });
    await submit(user);
    const terms = screen.getByRole('checkbox');
    expect(terms).toHaveAttribute('aria-invalid', 'true');
    expect(terms).toHaveAccessibleDescription('You must agree to the Terms of Service and Privacy Policy.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'false');
    expect(signup).not.toHaveBeenCalled();
  });

  it('requires matching passwords, under Confirm Password', async () => {
    const signup = vi.spyOn(authApi, 'signup');
    const user = await fill({ confirm: 'Sunny!Day8' });
    await submit(user);
    const confirm = screen.getByLabelText(/^Confirm Password/);
    expect(confirm).toHaveAttribute('aria-invalid', 'true');
    expect(confirm).toHaveAccessibleDescription('Passwords do not match.');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'false');
    expect(signup).not.toHaveBeenCalled();
  });

  it('requires a valid e-mail, under Email, and puts the focus there', async () => {
    const signup = vi.spyOn(authApi, 'signup');
    const user = await fill({ email: 'owner@example' });
    await submit(user);
    const email = screen.getByLabelText(/^Email/);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter a valid email address.');
    expect(email).toHaveFocus();
    expect(signup).not.toHaveBeenCalled();
  });

  it('refuses a password outside the pattern with the hint in red', async () => {
    const signup = vi.spyOn(authApi, 'signup');
    const user = await fill({ password: 'weakpassword' });
    await submit(user);
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(HINT);
    expect(signup).not.toHaveBeenCalled();
  });

  it('marks every bad field at once, each with its own message, and clears them when fixed', async () => {
    const signup = vi.spyOn(authApi, 'signup').mockResolvedValue({ message: 'Welcome aboard.' });
    const user = await fill({ email: 'owner@', password: 'weak', confirm: 'other', agree: false });
    await submit(user);
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Please enter a valid email address.');
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(HINT);
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAccessibleDescription('Passwords do not match.');
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription(
      'You must agree to the Terms of Service and Privacy Policy.',
    );
    expect(signup).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText(/^Email/));
    await user.type(screen.getByLabelText(/^Email/), 'owner@example.com');
    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'Sunny!Day7');
    await user.clear(screen.getByLabelText(/^Confirm Password/));
    await user.type(screen.getByLabelText(/^Confirm Password/), 'Sunny!Day7');
    await user.click(screen.getByRole('checkbox'));
    await submit(user);
    expect(await screen.findByText('Welcome aboard.')).toBeInTheDocument();
    expect(signup).toHaveBeenCalledWith({ email: 'owner@example.com', password: 'Sunny!Day7' });
    for (const field of [/^Email/, /^Password/, /^Confirm Password/]) {
      expect(screen.getByLabelText(field)).toHaveAttribute('aria-invalid', 'false');
    }
    expect(screen.queryByText('Passwords do not match.')).not.toBeInTheDocument();
  });

  it("shows 'Loading...' instead of the button while submitting, then the confirmation view", async () => {
    const pending = deferred<{ message: string }>();
    vi.spyOn(authApi, 'signup').mockReturnValue(pending.promise);
    const user = await fill();
    await submit(user);
    expect(screen.getByRole('button', { name: 'Loading...' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).not.toBeInTheDocument();

    pending.resolve({ message: SERVER_MESSAGE });
    expect(await screen.findByText(SERVER_MESSAGE)).toBeInTheDocument();
    expect(screen.getAllByText(/Please check your email to verify your account\./)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
  });

  it('adds the confirmation sentence when the server message says "check your email" differently', async () => {
    vi.spyOn(authApi, 'signup').mockResolvedValue({ message: 'Almost done: CHECK YOUR EMAIL.' });
    const user = await fill();
    await submit(user);
    expect(await screen.findByText('Almost done: CHECK YOUR EMAIL.')).toBeInTheDocument();
    expect(screen.getByText('Please check your email to verify your account.')).toBeInTheDocument();
  });

  it('keeps the form and shows the message when it does not ask to check e-mail', async () => {
    vi.spyOn(authApi, 'signup').mockResolvedValue({ message: 'Welcome aboard.' });
    const user = await fill();
    await submit(user);
    expect(await screen.findByText('Welcome aboard.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to Login' })).not.toBeInTheDocument();
  });

  it('sends the e-mail lowercased and records Signup Completed, identify and people properties', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValue(new Response(JSON.stringify({ message: SERVER_MESSAGE }), { status: 201 }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      const user = await fill({ email: '  Owner@Example.COM ' });
      await submit(user);
      await screen.findByRole('link', { name: 'Go to Login' });
      const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
      expect(path).toBe('/api/auth/signup');
      expect(JSON.parse(init.body as string)).toEqual({ email: 'owner@example.com', password: 'Sunny!Day7' });
      expect(track).toHaveBeenCalledWith('Signup Completed', { email: 'owner@example.com' });
      expect(identify).toHaveBeenCalledWith('owner@example.com');
      expect(setPeople).toHaveBeenCalledWith(
        expect.objectContaining({ email: 'owner@example.com', signupAt: expect.any(String) }),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows the server error text in red and records nothing', async () => {
    vi.spyOn(authApi, 'signup').mockRejectedValue(
      new ApiError(400, 'VALIDATION_FAILED', 'Please enter a valid email address.', true),
    );
    const user = await fill();
    await submit(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Please enter a valid email address.');
    expect(alert.className).toMatch(/Error/i);
    expect(track).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  });

  it("shows 'Error: ' plus the message on a network failure", async () => {
    vi.spyOn(authApi, 'signup').mockRejectedValue(new ApiError(0, 'NETWORK_ERROR', 'Failed to fetch', false));
    const user = await fill();
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Failed to fetch');
  });

  it("shows 'Error: ' plus the message when the answer cannot be read", async () => {
    vi.spyOn(authApi, 'signup').mockRejectedValue(
      new ApiError(201, 'INVALID_RESPONSE', 'The server sent an answer that could not be read.', false),
    );
    const user = await fill();
    await submit(user);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error: The server sent an answer that could not be read.')).toBeInTheDocument();
  });

  it('can show the password in clear text and hide it again', async () => {
    const user = userEvent.setup({ delay: null });
    renderAuthPage('/signup', <SignupPage />);
    const field = screen.getByLabelText(/^Password/);
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    await waitFor(() => expect(field).toHaveAttribute('type', 'password'));
  });
});
