/**
 * The widget's own texts in English (docs/product.md#widget-languages), the model for every
 * other file here: each exports the same keys (`satisfies Texts`). The window chunk is built once per language
 * with `#texts` pointing at that language's file (widget/build.mjs), so a visitor downloads one
 * language, inside the window. The owner's texts (greeting, banner, placeholder) are never
 * translated. `%s` stands for the bot's name. The quoted product texts come from lib/messages.ts.
 */
import {
  BOT_FETCH_FAILED,
  DEFAULT_PLACEHOLDER,
  GENERIC_ERROR,
  SEND_FAILED,
  SERVICE_UNAVAILABLE,
} from '../lib/messages';

export default {
  placeholder: DEFAULT_PLACEHOLDER,
  botFailed: BOT_FETCH_FAILED,
  error: GENERIC_ERROR,
  sendFailed: SEND_FAILED,
  unavailable: SERVICE_UNAVAILABLE,
  chatWith: 'Chat with %s',
  log: 'Conversation',
  input: 'Message',
  send: 'Send message',
  typing: 'The assistant is typing',
  checking: 'Checking your %s…',
  newChat: 'New conversation',
  close: 'Close chat',
  menu: 'More options',
  open: 'Open chat with %s',
  leave: 'Leave a message',
};
