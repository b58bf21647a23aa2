import type { ChatVisitor, Citation as ApiCitation, MessageRating, PublicBot } from '@botsmith/contract';

/** The bot's public face, as `GET /api/widget/bots/{id}` returns it. */
export type { PublicBot } from '@botsmith/contract';

/**
 * `agent`: a person's reply (docs/product.md#owner-replies); `note`: the lead form's thank-you.
 * Neither goes to the model as history.
 */
export type Role = 'user' | 'assistant' | 'agent' | 'note' | 'error';

/**
 * Where an answer came from, as the widget keeps and shows it: the contract's Citation
 * (contract/src/chat.ts) without the source's id, a page or an address only when usable (a
 * positive page, an http(s) address: see readCitations in extras/citations.ts).
 */
export type Citation = Pick<ApiCitation, 'name'> & {
  page?: NonNullable<ApiCitation['page']>;
  url?: NonNullable<ApiCitation['url']>;
};

export interface ChatMessage {
  role: Role;
  content: string;
  /** The sources an assistant answer cites, shown under it. */
  citations?: Citation[];
  /** An answer's id on the server (POST /api/chat/feedback); greetings and old answers have none. */
  id?: number;
  /** The visitor's last rating of the answer. */
  rating?: MessageRating;
  /** A person's reply: the display name the owner chose. */
  name?: string;
}

/** What the loader hands the lazily loaded chat window on every render. */
export interface WindowProps {
  botId: string;
  apiOrigin: string;
  /** Null when the bot's details could not be fetched; `botError` then says why. */
  bot: Partial<PublicBot> | null;
  botError: string;
  open: boolean;
  /** The `/widget` page: always open, no close control. */
  inline: boolean;
  onClose: () => void;
  /**
   * A message the host page asked to send (`Botsmith.send(text)`); a new object for each call,
   * so the same text twice is sent twice.
   */
  ask?: { text: string };
  /** Who the host page says the visitor is (`Botsmith.identify`), sent with each message. */
  visitor?: Visitor;
}

/**
 * `Botsmith.identify`: `{name, email}` (display only), `{token}` or `{userId, userHash, name, email}`
 * (docs/product.md#verified-visitors); lib/api.ts sends only these fields.
 */
export type Visitor = ChatVisitor;

/** The chat window chunk's only export: mounts into `el` and returns a re-render function. */
export type MountWindow = (el: HTMLElement, addCss: (css: string) => void) => (props: WindowProps | null) => void;
