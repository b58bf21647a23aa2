import type { PublicBot } from '../lib/types';
import { restyle } from './bot';
import { botId } from './discovery';
import { paint } from './launcher';
import { safe } from './safe';
import { drawWindow, open } from './chat-window';

/**
 * The dashboard's live preview (data-preview="true") sends unsaved styling as a window event; see
 * widget/README.md.
 */
export const PREVIEW_EVENT = 'botsmith:preview';

export const onPreview = safe((e: Event) => {
  const detail: unknown = (e as CustomEvent).detail;
  if (!detail || typeof detail != 'object') return;
  const d = detail as Partial<PublicBot> & { botId?: unknown };
  // Loose equality on purpose: the dashboard may pass the id as a number.
  if (d.botId != null && d.botId != botId) return;
  restyle(d);
  paint(open);
  drawWindow();
});
