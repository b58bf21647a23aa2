import { useEffect } from 'react';

/**
 * Loads Botsmith's own chat widget for `botId` while the calling page is shown: the same
 * one-line embed a customer pastes, injected on mount and removed on unmount.
 */
export function useWidgetScript(botId: number): void {
  useEffect(() => {
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.async = true;
    script.dataset.botId = String(botId);
    document.body.appendChild(script);
    return () => {
      script.remove();
    };
  }, [botId]);
}
