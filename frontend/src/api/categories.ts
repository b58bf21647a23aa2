import { apiFetch } from './client';
import type { Category } from './types';

export const categoriesApi = {
  list: () => apiFetch<{ categories: Category[] }>('/api/categories'),
  create: (name: string) =>
    apiFetch<{ message: string; category: Category }>('/api/categories', {
      method: 'POST',
      body: { name: name.trim() },
    }),
  remove: (id: number) => apiFetch<Record<string, unknown>>(`/api/categories/${id}`, { method: 'DELETE' }),
};
