import t from '#extras-texts';
import type { MessageRating } from '@botsmith/contract';
import type { Dispatch, StateUpdater } from 'preact/hooks';
import type { ChatMessage } from '../lib/types';
import { sendFeedback } from './api';
import { citationLabel, readCitations } from './citations';

/** Thumbs up; turned over (CSS) for thumbs down. Takes the button's text colour. */
const thumb = (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M1 21h4V9H1zm22-11c0-1-1-2-2-2h-6l1-5-1-2-7 7v12h11l4-8z" />
  </svg>
);

/**
 * What follows an answer's bubble: its sources as small links (a file without an address as plain
 * text), then the rating buttons when the server named the answer. Nothing for other messages.
 * A rating shows at once and is sent to POST /api/chat/feedback; the previous one comes back if
 * the server did not take it.
 */
export function AnswerFooter({
  message,
  apiOrigin,
  botId,
  setMessages,
}: {
  message: ChatMessage;
  apiOrigin: string;
  botId: string;
  setMessages: Dispatch<StateUpdater<ChatMessage[]>>;
}) {
  if (message.role != 'assistant') return null;
  const mark = (value?: MessageRating) =>
    setMessages((ms) => ms.map((m) => (m.id == message.id && m.role == 'assistant' ? { ...m, rating: value } : m)));
  const rate = async (rating: MessageRating) => {
    mark(rating);
    if (!(await sendFeedback(apiOrigin, botId, message.id!, rating))) mark(message.rating);
  };
  // Read again here: a stored conversation comes back from session storage unchecked.
  const cites = readCitations(message.citations);
  const id = message.id!;
  return (
    <>
      {cites ? (
        <ul class="src" aria-label={t.sources}>
          {cites.map((c, i) => (
            <li key={i}>
              {c.url ? (
                <a href={c.url} target="_blank" rel="noopener noreferrer" title={c.url}>
                  {citationLabel(c)}
                </a>
              ) : (
                citationLabel(c)
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {id > 0 && id % 1 == 0 ? (
        <div class="rt" role="group" aria-label={t.rate}>
          {(['up', 'down'] as const).map((value) => (
            <button
              type="button"
              class={'ib ' + value}
              aria-label={value == 'up' ? t.good : t.bad}
              aria-pressed={message.rating == value}
              onClick={() => void rate(value)}
            >
              {thumb}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}
