import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown';
import type { ComponentChildren } from 'preact';
import type { ChatMessage } from '../lib/types';

export interface MessageBubbleProps {
  message: ChatMessage;
  /** True while the reply is still streaming in. */
  streaming?: boolean;
  /** What follows the bubble: an answer's sources and rating (extras/AnswerFooter), once loaded. */
  footer?: ComponentChildren;
}

/**
 * One bubble: the visitor's text as typed, the assistant's as safe Markdown, a person's reply as
 * typed under their name, errors in italics; an answer's sources and rating follow it.
 */
export function MessageBubble({ message, streaming, footer }: MessageBubbleProps) {
  const { role, content } = message;
  // Parsed once per text: while a reply streams, the bubbles above it re-render on every token.
  const body = useMemo(() => (role == 'assistant' ? renderMarkdown(content) : content), [role, content]);
  return (
    <>
      <div class={`m ${role}`} aria-busy={streaming ? 'true' : undefined}>
        {message.name ? <b>{message.name}</b> : null}
        {body}
      </div>
      {footer}
    </>
  );
}
