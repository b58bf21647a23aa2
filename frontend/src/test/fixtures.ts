import { BOT_DEFAULTS } from '@botsmith/contract';
import type { BotResponse, SourceResponse, UsageHistoryResponse } from '../api/types';

/** A bot as GET /api/bots/:id answers, with the defaults of a new bot. */
export function makeBot(overrides: Partial<BotResponse> = {}): BotResponse {
  const bot: BotResponse = {
    ...BOT_DEFAULTS,
    id: 7,
    name: 'Support Bot',
    apiKey: 'k'.repeat(43),
    starterQuestions: [],
    widgetLanguage: 'auto',
    model: 'gpt-3.5-turbo',
    showModelLabel: false,
    categoryId: null,
    document: null,
    sendButtonColor1: BOT_DEFAULTS.sendButtonColor,
  };
  return { ...bot, ...overrides };
}

/** A ready file source as GET /api/bots/:id/knowledge lists it: Menu.pdf, 1.4 MB, 3 pages, 12 passages. */
export function knowledgeSource(overrides: Partial<SourceResponse> = {}): SourceResponse {
  return {
    id: 1,
    kind: 'file',
    name: 'Menu.pdf',
    status: 'ready',
    error: null,
    pages: 3,
    chunks: 12,
    bytes: 1_468_006,
    url: null,
    refreshSchedule: null,
    lastRefreshedAt: null,
    nextRefreshAt: null,
    notice: null,
    correction: false,
    reference: false,
    question: null,
    embedded: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:05.000Z',
    ...overrides,
  };
}

export function history(overrides: Partial<UsageHistoryResponse> = {}): UsageHistoryResponse {
  return {
    labels: [
      '2026-11-13',
      '2026-11-14',
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ],
    messageCounts: [0, 0, 0, 0, 0, 0, 0, 1, 0, 3],
    visitorMessages: [0, 0, 0, 0, 0, 0, 0, 2, 0, 4],
    tokensUsed: [0, 0, 0, 0, 0, 0, 0, 150, 0, 420],
    costs: [0, 0, 0, 0, 0, 0, 0, 5, 0, 15],
    ...overrides,
  };
}
