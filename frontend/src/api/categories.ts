import { apiFetch } from './client';
import type { CategoryResponse } from './types';

export const categoriesApi = {
  list: () => apiFetch<{ categories: CategoryResponse[] }>('/api/categories'),
  create: (name: string) =>
    apiFetch<{ message: string; category: CategoryResponse }>('/api/categories', {
      method: 'POST',
      body: { name: name.trim() },
    }),
  remove: (id: number) => apiFetch<Record<string, unknown>>(`/api/categories/${id}`, { method: 'DELETE' }),
};
