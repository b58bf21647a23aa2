import type {
  ConversationFilter,
  ConversationsPage,
  ConversationTranscript,
  CorrectionRequest,
  OnboardingState,
  OwnerReplyResponse,
  QuestionPeriod,
  QuestionsReport,
} from '@botsmith/contract';
import { apiFetch, apiRequest } from './client';
import { fileNameFrom, type DownloadedFile } from './usage';

/** What narrows the inbox; an absent field does not narrow it. */
export interface ConversationQuery {
  botId?: number;
  /** Full-text search over the messages. */
  q?: string;
  /** ISO instants, inclusive. */
  from?: string;
  to?: string;
  filter?: ConversationFilter;
}

function queryString(query: ConversationQuery, extra: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  const fields: Record<string, string | number | undefined> = {
    botId: query.botId,
    q: query.q?.trim() || undefined,
    from: query.from,
    to: query.to,
    filter: query.filter && query.filter !== 'all' ? query.filter : undefined,
    ...extra,
  };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The conversations inbox, the unanswered-questions report and corrections (docs/product.md#conversations). */
export const conversationsApi = {
  /** One page, newest first; pass the previous page's nextCursor as `cursor` for the next. */
  list: (query: ConversationQuery, cursor?: string | null, signal?: AbortSignal) =>
    apiFetch<ConversationsPage>(`/api/conversations${queryString(query, { cursor: cursor ?? undefined })}`, {
      signal,
    }),
  get: (id: number) => apiFetch<ConversationTranscript>(`/api/conversations/${id}`),
  /** How many handed-off conversations wait for the owner's reply (the visitor wrote last). */
  waitingCount: () => apiFetch<{ count: number }>('/api/conversations/waiting-count'),
  /** The dashboard's "Next steps" for a new account (docs/product.md#next-steps). */
  onboarding: () => apiFetch<OnboardingState>('/api/onboarding'),
  remove: (id: number) => apiFetch<Record<string, never>>(`/api/conversations/${id}`, { method: 'DELETE' }),
  /** The owner answers the visitor in person; the conversation is handed off (docs/product.md#owner-replies). */
  reply: (id: number, content: string) =>
    apiFetch<OwnerReplyResponse>(`/api/conversations/${id}/reply`, { method: 'POST', body: { content } }),
  /** The bot answers the conversation again. */
  handBack: (id: number) => apiFetch<Record<string, never>>(`/api/conversations/${id}/handback`, { method: 'POST' }),
  /** The conversations the query finds, as an .xlsx file. */
  exportFile: async (query: ConversationQuery): Promise<DownloadedFile> => {
    const response = await apiRequest(`/api/conversations/export${queryString(query)}`, {
      headers: { Accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json' },
    });
    return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('Content-Disposition')) };
  },
  /** A bot's visitor questions it could not answer, similar ones grouped, most asked first. */
  unansweredQuestions: (botId: number, period: QuestionPeriod) =>
    apiFetch<QuestionsReport>(`/api/bots/${botId}/questions?filter=unanswered&period=${period}`),
  /** The owner's answer to a question, used first from then on. */
  correct: (botId: number, correction: CorrectionRequest) =>
    apiFetch<unknown>(`/api/bots/${botId}/corrections`, { method: 'POST', body: correction }),
};
