import type {
  ActionResponse,
  ActionsResponse,
  ActionStatsResponse,
  ActionTestRequest,
  ActionTestResponse,
  SaveActionRequest,
} from '@botsmith/contract';
import { apiFetch } from './client';

/** A bot's HTTP actions (docs/product.md#actions). Header values never come back: "••••". */
export const actionsApi = {
  list: (botId: number, signal?: AbortSignal) => apiFetch<ActionsResponse>(`/api/bots/${botId}/actions`, { signal }),
  /** Each action's calls, failures and p95 time over the last 30 days. */
  stats: (botId: number, signal?: AbortSignal) =>
    apiFetch<ActionStatsResponse>(`/api/bots/${botId}/actions/stats`, { signal }),
  create: (botId: number, action: SaveActionRequest) =>
    apiFetch<ActionResponse>(`/api/bots/${botId}/actions`, { method: 'POST', body: action }),
  /** A header sent without a value keeps its stored value. */
  update: (botId: number, id: number, action: SaveActionRequest) =>
    apiFetch<ActionResponse>(`/api/bots/${botId}/actions/${id}`, { method: 'PUT', body: action }),
  remove: (botId: number, id: number) => apiFetch<unknown>(`/api/bots/${botId}/actions/${id}`, { method: 'DELETE' }),
  /** Runs the action once: the request made (secrets masked), the status, the time, the filtered answer. */
  test: (botId: number, id: number, request: ActionTestRequest) =>
    apiFetch<ActionTestResponse>(`/api/bots/${botId}/actions/${id}/test`, { method: 'POST', body: request }),
};
