import { apiFetch } from './client';
import type { AccountSettings, CurrentUser } from './types';

export const userApi = {
  me: () => apiFetch<CurrentUser>('/api/user/me'),
  getSettings: () => apiFetch<AccountSettings>('/api/user/settings'),
  /** Saves the fields given; the others keep their values. */
  updateSettings: (settings: Partial<AccountSettings>) =>
    apiFetch<AccountSettings>('/api/user/settings', { method: 'PUT', body: settings }),
};
