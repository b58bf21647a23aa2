import { apiFetch } from './client';
import type { BotIdentityStatus } from '@botsmith/contract';
import type { BotResponse, BotSummary, BotUpdate } from './types';

const botPath = (id: number) => `/api/bots/${id}`;

export const botsApi = {
  list: () => apiFetch<{ bots: BotResponse[] }>('/api/bots'),
  create: (botName: string) => apiFetch<{ bot: BotSummary }>('/api/bots', { method: 'POST', body: { botName } }),
  get: (id: number) => apiFetch<{ bot: BotResponse }>(botPath(id)),
  update: (id: number, changes: BotUpdate) =>
    apiFetch<{ bot: BotResponse }>(botPath(id), { method: 'PUT', body: changes }),
  rotateApiKey: (id: number) => apiFetch<{ apiKey: string }>(`${botPath(id)}/api-key`, { method: 'POST' }),
  /** Whether the bot has an identity secret and the proofs refused this week (docs/product.md#verified-visitors). */
  identity: (id: number, signal?: AbortSignal) =>
    apiFetch<{ identity: BotIdentityStatus }>(`${botPath(id)}/identity`, { signal }),
  /** Makes a new identity secret, answered this once; proofs signed with the old one are refused from then on. */
  rotateIdentitySecret: (id: number) =>
    apiFetch<{ identitySecret: string }>(`${botPath(id)}/identity-secret`, { method: 'POST' }),
  remove: (id: number) => apiFetch<Record<string, unknown>>(botPath(id), { method: 'DELETE' }),
};
