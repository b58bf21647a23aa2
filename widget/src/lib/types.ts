/** The bot's public face, as `GET /api/widget/bots/{id}` returns it. */
export interface PublicBot {
  id: string | number;
  name: string;
  customGreeting: string;
  modelLabel: string;
  /** The model tier id, if the server sends it; the server never trusts it for pricing. */
  model?: string;
  hidden: boolean;
  bubbleIcon: string;
  bubbleColor: string;
  bubbleTextColor: string;
  bubbleBorderRadius: string;
  chatWindowBorderRadius: string;
  bannerColor: string;
  bannerTextColor: string;
  bannerDisclaimer: string;
  placeholderText: string;
  placeholderTextColor: string;
  sendButtonColor: string;
  /** The same colour under the name the original widget read; used when sendButtonColor is missing. */
  sendButtonColor1?: string;
  sendArrowColor: string;
  widgetBubbleColor: string;
  assistantBubbleColor: string;
  assistantBubbleTextColor: string;
  widgetBackgroundColor: string;
  animation: string;
  widgetPosition: string;
}

export type Role = 'user' | 'assistant' | 'error';

export interface ChatMessage {
  role: Role;
  content: string;
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
}

/** The chat window chunk's only export: mounts into `el` and returns a re-render function. */
export type MountWindow = (el: HTMLElement, addCss: (css: string) => void) => (props: WindowProps | null) => void;
