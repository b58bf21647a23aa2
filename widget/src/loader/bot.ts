import type { BotResult } from '../lib/api';
import type { PublicBot } from '../lib/types';

/** The bot's public face, as fetched and, in the preview, restyled; null until fetched or if that failed. */
export let bot: Partial<PublicBot> | null = null;
/** Why the face could not be fetched; the window shows it in place of the conversation. */
export let botError = '';

export function receive(result: BotResult): void {
  if (result.bot) bot = result.bot;
  else botError = result.error;
}

/** Unsaved styling from the dashboard's preview, over the face so far. */
export function restyle(fields: Partial<PublicBot>): void {
  bot = { ...bot, ...fields };
}

/** The side of the page the widget sits on. */
export function side(): 'left' | 'right' {
  return bot?.widgetPosition == 'left' ? 'left' : 'right';
}
