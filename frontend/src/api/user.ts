import { apiFetch } from './client';
import type { SettingsResponse, CurrentUser } from './types';

export const userApi = {
  me: () => apiFetch<CurrentUser>('/api/user/me'),
  getSettings: () => apiFetch<SettingsResponse>('/api/user/settings'),
  /** Saves the fields given; the others keep their values. */
  updateSettings: (settings: Partial<SettingsResponse>) =>
    apiFetch<SettingsResponse>('/api/user/settings', { method: 'PUT', body: settings }),
};
