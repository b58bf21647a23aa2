import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown';
import type { ChatMessage } from '../lib/types';

export interface MessageBubbleProps {
  message: ChatMessage;
  /** True while the reply is still streaming in. */
  streaming?: boolean;
}

/** One bubble: the visitor's text as typed, the assistant's as safe Markdown, errors in italics. */
export function MessageBubble({ message, streaming }: MessageBubbleProps) {
  const { role, content } = message;
  // Parsed once per text: while a reply streams, the bubbles above it re-render on every token.
  const body = useMemo(() => (role == 'assistant' ? renderMarkdown(content) : content), [role, content]);
  return (
    <div class={`m ${role}`} aria-busy={streaming ? 'true' : undefined}>
      {body}
    </div>
  );
}
