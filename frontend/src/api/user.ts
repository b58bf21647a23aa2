import { apiFetch } from './client';
import type { CurrentUser } from './types';

export const userApi = {
  me: () => apiFetch<CurrentUser>('/api/user/me'),
};
