import { apiFetch } from './client';
import type { AccountSettings, CurrentUser } from './types';

export const userApi = {
  me: () => apiFetch<CurrentUser>('/api/user/me'),
  getSettings: () => apiFetch<AccountSettings>('/api/user/settings'),
  updateSettings: (settings: AccountSettings) =>
    apiFetch<AccountSettings>('/api/user/settings', { method: 'PUT', body: settings }),
};
