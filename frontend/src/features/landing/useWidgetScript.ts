import { useEffect } from 'react';

/**
 * Loads Botsmith's own chat widget for `botId` while the calling page is shown: the same
 * one-line embed a customer pastes, injected on mount and removed on unmount (which removes the
 * widget too). `inline` renders only the open 350x500 window (the /widget page; widget/README.md).
 */
export function useWidgetScript(botId: number | undefined, options: { inline?: boolean } = {}): void {
  const inline = options.inline ?? false;
  useEffect(() => {
    if (botId === undefined) return;
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.async = true;
    script.dataset.botId = String(botId);
    if (inline) script.dataset.inline = 'true';
    document.body.appendChild(script);
    return () => {
      script.remove();
    };
  }, [botId, inline]);
}
