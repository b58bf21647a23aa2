/**
 * The window's second chunk (dist/widget-assets/extras-<language>-<hash>.js, built with each
 * window, vite.config.ts): what a visitor needs only once a conversation has started or a form is
 * offered, so the window itself stays inside the 15 KB opened budget (docs/decisions/0004). The
 * window imports it after the first message, at once for a stored conversation, and when it
 * offers the lead form (docs/product.md#leads-and-handoff).
 */
export { default as css } from '../styles/extras.css?inline';
export { AnswerFooter } from './AnswerFooter';
export { Handoff } from './Handoff';
export { Menu } from './Menu';
export { deleteConversation } from './api';
