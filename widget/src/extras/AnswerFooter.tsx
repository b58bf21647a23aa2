import t from '#extras-texts';
import { FEEDBACK_COMMENT_MAX_CHARS, type MessageRating } from '@botsmith/contract';
import { useEffect, useRef, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
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
 * the server did not take it. A thumbs down the server took opens a comment box
 * (docs/product.md#conversations): its text goes with the rating again, then a thank-you shows.
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
  /** The comment box: closed, open, sending, or sent (its thank-you shows). */
  const [box, setBox] = useState<'' | 'open' | 'busy' | 'sent'>('');
  const [comment, setComment] = useState('');
  const [failed, setFailed] = useState(false);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  // The box takes the keyboard as it opens (once: a later render, e.g. the menu's, keeps its focus),
  // and the conversation scrolls just enough to show it whole: it opens below an answer that may
  // already reach the window's bottom, which left its Send out of sight.
  useEffect(() => {
    if (box != 'open') return;
    const field = boxRef.current;
    field?.focus({ preventScroll: true });
    const form = field?.form;
    const log = form?.closest<HTMLElement>('.log');
    if (!form || !log) return;
    const below = form.getBoundingClientRect().bottom - log.getBoundingClientRect().bottom;
    if (below > 0) log.scrollTop += below + 8;
  }, [box]);
  if (message.role != 'assistant') return null;
  const mark = (value?: MessageRating) =>
    setMessages((ms) => ms.map((m) => (m.id == message.id && m.role == 'assistant' ? { ...m, rating: value } : m)));
  const rate = async (rating: MessageRating) => {
    mark(rating);
    const took = await sendFeedback(apiOrigin, botId, message.id!, rating);
    if (!took) mark(message.rating);
    setBox(took && rating == 'down' ? 'open' : '');
  };
  const sendComment = async () => {
    setBox('busy');
    const took = await sendFeedback(apiOrigin, botId, message.id!, 'down', comment.trim());
    setFailed(!took);
    setBox(took ? 'sent' : 'open');
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
      {box == 'sent' ? (
        <p class="note" role="status">
          {t.rated}
        </p>
      ) : box ? (
        <form
          class="lf cm"
          onSubmit={(e) => {
            e.preventDefault();
            void sendComment();
          }}
        >
          <label>
            {t.why}
            <textarea
              ref={boxRef}
              rows={2}
              maxLength={FEEDBACK_COMMENT_MAX_CHARS}
              value={comment}
              onInput={(e) => setComment(e.currentTarget.value)}
            />
          </label>
          {failed ? <p role="alert">{t.leadFailed}</p> : null}
          <div class="bt">
            <button type="button" class="c" onClick={() => setBox('')}>
              {t.cancel}
            </button>
            <button type="submit" class="s" disabled={box == 'busy' || !comment.trim()}>
              {t.submit}
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
