import { useEffect } from 'react';

/**
 * Loads Botsmith's own chat widget for `botId` while the calling page is shown: the same
 * one-line embed a customer pastes, injected on mount and removed on unmount (which removes the
 * widget too). `inline` renders only the open 350x500 window (the /widget page; widget/README.md).
 * A matching embed already in the page (the prerendered landing page has one in its HTML) is
 * adopted instead of added again, and removed on unmount all the same.
 */
export function useWidgetScript(botId: number | undefined, options: { inline?: boolean } = {}): void {
  const inline = options.inline ?? false;
  useEffect(() => {
    if (botId === undefined) return;
    const existing = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src="/widget.js"]')).find(
      (element) => element.dataset.botId === String(botId) && (element.dataset.inline === 'true') === inline,
    );
    const script = existing ?? document.createElement('script');
    if (!existing) {
      script.src = '/widget.js';
      script.async = true;
      script.dataset.botId = String(botId);
      if (inline) script.dataset.inline = 'true';
      document.body.appendChild(script);
    }
    return () => {
      script.remove();
    };
  }, [botId, inline]);
}
