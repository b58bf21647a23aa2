import { apiFetch } from './client';
import type { Credentials, MessageResponse } from './types';

const normalise = ({ email, password }: Credentials): Credentials => ({ email: email.trim().toLowerCase(), password });

export const authApi = {
  signup: (credentials: Credentials) =>
    apiFetch<MessageResponse>('/api/auth/signup', { method: 'POST', body: normalise(credentials) }),
  login: (credentials: Credentials) =>
    apiFetch<MessageResponse>('/api/auth/login', { method: 'POST', body: normalise(credentials) }),
  logout: () => apiFetch<Partial<MessageResponse>>('/api/auth/logout', { method: 'POST' }),
  forgotPassword: (email: string) =>
    apiFetch<MessageResponse>('/api/auth/forgot-password', {
      method: 'POST',
      body: { email: email.trim().toLowerCase() },
    }),
  resetPassword: (token: string, password: string) =>
    apiFetch<MessageResponse>(`/api/auth/reset-password/${encodeURIComponent(token)}`, {
      method: 'POST',
      body: { password },
    }),
  verifyEmail: (token: string) => apiFetch<MessageResponse>(`/api/auth/verify-email/${encodeURIComponent(token)}`),
  /** The link opened in another browser than the signup's: verified only with the password chosen at signup. */
  verifyEmailWithPassword: (token: string, password: string) =>
    apiFetch<MessageResponse>(`/api/auth/verify-email/${encodeURIComponent(token)}`, {
      method: 'POST',
      body: { password },
    }),
  deleteAccount: () => apiFetch<Partial<MessageResponse>>('/api/auth/delete-account', { method: 'DELETE' }),
};
