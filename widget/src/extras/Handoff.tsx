import type { Dispatch, StateUpdater } from 'preact/hooks';
import t from '#extras-texts';
import { useEffect, useState } from 'preact/hooks';
import type { ChatMessage, PublicBot } from '../lib/types';
import { LeadForm } from './LeadForm';
import { listenForReplies } from './replies';

export interface HandoffProps {
  apiOrigin: string;
  botId: string;
  bot: Partial<PublicBot>;
  messages: ChatMessage[];
  setMessages: Dispatch<StateUpdater<ChatMessage[]>>;
  open: boolean;
  /** A message is on its way: its answer's stream first. */
  pending: boolean;
  /** The visitor asked for a person ("Talk to a person"), or an answer was flagged unanswered. */
  asked: boolean;
  /** The visitor cancelled the form: it goes until they ask for it again. */
  onCancel: () => void;
}

/**
 * The person behind the bot (docs/product.md#leads-and-handoff), at the end of the conversation:
 * the lead form when the bot offers it (at the cap instead of the chat, when asked for, after an
 * unanswered answer, before the first message) until a lead is sent, then its thank-you; and a
 * person's replies, listened for while one handles the conversation (they replied, or a lead was
 * sent) and while the window shows a conversation (the owner may reply to any from the inbox).
 */
export function Handoff({
  apiOrigin,
  botId,
  bot,
  messages,
  setMessages,
  open,
  pending,
  asked,
  onCancel,
}: HandoffProps) {
  const offer: string[] = bot.leadCapture?.offerWhen || [];
  const sent = messages.some((m) => m.role == 'note');
  // The form offered before the first message, cancelled: it stays away (asking again brings it back).
  const [declined, setDeclined] = useState(false);
  const form = !sent && (bot.leadOnly || asked || (!declined && !messages.length && offer.includes('start')));
  const handedOff = sent || messages.some((m) => m.role == 'agent');
  const listening = (handedOff || (open && messages.length > 0)) && !pending;

  useEffect(() => {
    if (!listening) return;
    const after = Math.max(0, ...messages.map((m) => (m.role == 'agent' && m.id) || 0));
    return listenForReplies(apiOrigin, botId, after, (reply) =>
      setMessages((ms) =>
        ms.some((m) => m.role == 'agent' && m.id == reply.id)
          ? ms
          : [...ms, { role: 'agent', content: reply.content, name: reply.name, id: reply.id }],
      ),
    );
    // Started and stopped by `listening` only: it follows the replies it has itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listening]);

  return form ? (
    <LeadForm
      apiOrigin={apiOrigin}
      botId={botId}
      bot={bot}
      title={bot.leadOnly ? t.leave : t.talk}
      onSent={(thanks) => setMessages((ms) => [...ms, { role: 'note', content: thanks }])}
      onCancel={
        bot.leadOnly
          ? undefined
          : () => {
              setDeclined(true);
              onCancel();
            }
      }
    />
  ) : null;
}
