import { widgetTheme } from '@botsmith/contract';
import { useEffect, useRef } from 'react';
import type { BotStylingUpdate } from '../../api/types';

/** What the preview takes (widget/README.md): styling fields, plus name and greeting. */
export type PreviewDetail = Partial<BotStylingUpdate> & { name?: string; customGreeting?: string };

export const PREVIEW_EVENT = 'botsmith:preview';
const WIDGET_TAG = 'botsmith-widget';

function push(botId: number, detail: PreviewDetail): void {
  // The widget paints the face's `theme`: the unsaved styling's is computed here, as the API does.
  const theme = widgetTheme(detail);
  window.dispatchEvent(new CustomEvent(PREVIEW_EVENT, { detail: { botId, ...detail, theme } }));
}

/**
 * The Styling tab's live preview: the real widget (`/widget.js` with `data-preview="true"`) is on
 * the page while `enabled`, and receives every unsaved change as a `botsmith:preview` event. The
 * script tag is removed when the tab closes, which removes the widget (widget/README.md).
 */
export function useWidgetPreview(botId: number, detail: PreviewDetail, enabled: boolean): void {
  const latest = useRef(detail);
  useEffect(() => {
    latest.current = detail;
  }, [detail]);

  useEffect(() => {
    if (!enabled) return;
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.async = true;
    script.dataset.botId = String(botId);
    script.dataset.preview = 'true';
    // The widget listens once it has fetched the saved bot and drawn itself: send the unsaved
    // values again as soon as its element appears.
    const observer = new MutationObserver((records) => {
      const appeared = records.some((record) =>
        Array.from(record.addedNodes).some((node) => node.nodeName.toLowerCase() === WIDGET_TAG),
      );
      if (appeared) queueMicrotask(() => push(botId, latest.current));
    });
    observer.observe(document.body, { childList: true });
    document.body.appendChild(script);
    return () => {
      observer.disconnect();
      script.remove();
    };
  }, [botId, enabled]);

  useEffect(() => {
    if (enabled) push(botId, detail);
  }, [botId, detail, enabled]);
}
