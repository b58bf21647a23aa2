import type { Bot, UsageHistory } from '../api/types';

const solid = (hex: string) => `linear-gradient(to right, ${hex}, ${hex})`;

/** A bot as GET /api/bots/:id answers, with the defaults of a new bot. */
export function makeBot(overrides: Partial<Bot> = {}): Bot {
  const bot: Bot = {
    id: 7,
    name: 'Support Bot',
    apiKey: 'k'.repeat(43),
    prompt: '',
    customGreeting: 'Hi! How can I help you today?',
    model: 'gpt-3.5-turbo',
    categoryId: null,
    allowedDomain: '',
    document: null,
    bubbleIcon: '',
    bubbleColor: solid('#2ecc71'),
    bubbleTextColor: solid('#ffffff'),
    bubbleBorderRadius: '50%',
    chatWindowBorderRadius: '10px',
    bannerColor: solid('#2ecc71'),
    bannerTextColor: solid('#ffffff'),
    bannerDisclaimer: '',
    placeholderText: 'Type your message here...',
    placeholderTextColor: solid('#000000'),
    sendButtonColor: solid('#2ecc71'),
    sendButtonColor1: solid('#2ecc71'),
    sendArrowColor: solid('#ffffff'),
    widgetBubbleColor: solid('#ff9800'),
    assistantBubbleColor: solid('#f1f0f0'),
    assistantBubbleTextColor: solid('#000000'),
    widgetBackgroundColor: solid('#ffffff'),
    animation: 'none',
    widgetPosition: 'right',
    maxTokens: 300,
    temperature: 0.3,
    // What the server gives a new bot (DEFAULT_BOT_BUDGET_DOLLARS).
    usageLimitDollars: 10,
  };
  return { ...bot, ...overrides };
}

export function history(overrides: Partial<UsageHistory> = {}): UsageHistory {
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
    tokensUsed: [0, 0, 0, 0, 0, 0, 0, 150, 0, 420],
    costs: [0, 0, 0, 0, 0, 0, 0, 5, 0, 15],
    ...overrides,
  };
}
