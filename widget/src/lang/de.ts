/** Deutsch: the widget's own texts (see en.ts). */
import type { Texts } from '../lib/i18n';

export default {
  placeholder: 'Schreiben Sie hier Ihre Nachricht...',
  botFailed: 'Die Angaben zum Bot konnten nicht geladen werden.',
  error: 'Ein Fehler ist aufgetreten.',
  sendFailed: 'Beim Senden Ihrer Nachricht ist ein Fehler aufgetreten.',
  unavailable: 'Botsmith ist kurz nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
  chatWith: 'Chat mit %s',
  log: 'Unterhaltung',
  input: 'Nachricht',
  send: 'Nachricht senden',
  typing: 'Der Assistent schreibt',
  checking: 'Ich sehe nach: %s…',
  newChat: 'Neue Unterhaltung',
  close: 'Chat schließen',
  menu: 'Weitere Optionen',
  open: 'Chat mit %s öffnen',
  leave: 'Nachricht hinterlassen',
} satisfies Texts;
