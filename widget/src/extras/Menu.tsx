import t from '#extras-texts';
import type { Dispatch, StateUpdater } from 'preact/hooks';
import type { ChatMessage } from '../lib/types';
import { deleteConversation } from './api';

/**
 * The conversation's menu under the banner's "More options" (docs/product.md#embedded-widget):
 * "Talk to a person" when the bot offers its lead form on request, and "Delete this
 * conversation" (docs/product.md#retention-and-visitor-privacy): the answer on its way is
 * stopped, the conversation deleted on the server as this visitor, then the browser's copy
 * (`onDeleted`); if the server refused, it is kept and the visitor told. Closes when focus leaves
 * it (a click elsewhere, Tab); Escape is the window's.
 */
export function Menu({
  talk,
  onTalk,
  onClose,
  stop,
  onDeleted,
  setMessages,
  apiOrigin,
  botId,
}: {
  talk: boolean;
  onTalk: () => void;
  onClose: () => void;
  stop: () => void;
  onDeleted: () => void;
  setMessages: Dispatch<StateUpdater<ChatMessage[]>>;
  apiOrigin: string;
  botId: string;
}) {
  async function remove(): Promise<void> {
    onClose();
    stop();
    if (await deleteConversation(apiOrigin, botId)) onDeleted();
    else setMessages((ms) => [...ms, { role: 'error', content: t.removeFailed }]);
  }
  return (
    <div class="mn" role="menu" onFocusOut={(e) => e.currentTarget.contains(e.relatedTarget as Node) || onClose()}>
      {talk ? (
        <button type="button" role="menuitem" onClick={onTalk}>
          {t.talk}
        </button>
      ) : null}
      <button type="button" role="menuitem" ref={(b) => b?.focus()} onClick={() => void remove()}>
        {t.remove}
      </button>
    </div>
  );
}
