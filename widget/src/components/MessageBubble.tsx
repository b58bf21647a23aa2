import { useMemo } from 'preact/hooks';
import { citationLabel, readCitations } from '../lib/citations';
import { renderMarkdown } from '../lib/markdown';
import type { MessageRating } from '@botsmith/contract';
import type { Texts } from '../lib/i18n';
import type { ChatMessage } from '../lib/types';
import { ThumbIcon } from './Icons';

export interface MessageBubbleProps {
  message: ChatMessage;
  /** True while the reply is still streaming in. */
  streaming?: boolean;
  /** Rates the answer; absent where nothing can be rated (greetings, the reply streaming in). */
  onRate?: (rating: MessageRating) => void;
  /** The widget's own texts, in the visitor's language. */
  t: Texts;
}

/**
 * One bubble: the visitor's text as typed, the assistant's as safe Markdown, errors in italics.
 * An answer's sources follow it as small links (a file without an address as plain text).
 */
export function MessageBubble({ message, streaming, onRate, t }: MessageBubbleProps) {
  const { role, content } = message;
  // Parsed once per text: while a reply streams, the bubbles above it re-render on every token.
  const body = useMemo(() => (role == 'assistant' ? renderMarkdown(content) : content), [role, content]);
  // Read again here: a stored conversation comes back from session storage unchecked.
  const cites = role == 'assistant' ? readCitations(message.citations) : undefined;
  const bubble = (
    <div class={`m ${role}`} aria-busy={streaming ? 'true' : undefined}>
      {body}
    </div>
  );
  // Only an answer the server named has an id (a stored one is checked again, as above).
  const rating = onRate && message.id! > 0 && message.id! % 1 == 0 && (
    <div class="rt" role="group" aria-label={t.rate}>
      {(['up', 'down'] as const).map((value) => (
        <button
          type="button"
          class={'ib ' + value}
          aria-label={value == 'up' ? t.good : t.bad}
          aria-pressed={message.rating == value}
          onClick={() => onRate(value)}
        >
          <ThumbIcon />
        </button>
      ))}
    </div>
  );
  if (!cites && !rating) return bubble;
  return (
    <>
      {bubble}
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
      {rating}
    </>
  );
}
