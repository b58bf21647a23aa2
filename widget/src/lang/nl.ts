/** Nederlands: the widget's own texts (see en.ts). */
import type { Texts } from '../lib/i18n';

export default {
  placeholder: 'Typ hier je bericht...',
  botFailed: 'De gegevens van de bot konden niet worden geladen.',
  error: 'Er is een fout opgetreden.',
  sendFailed: 'Er is een fout opgetreden bij het verzenden van je bericht.',
  unavailable: 'Botsmith is even niet bereikbaar. Probeer het zo opnieuw.',
  chatWith: 'Chat met %s',
  log: 'Gesprek',
  input: 'Bericht',
  send: 'Bericht verzenden',
  typing: 'De assistent is aan het typen',
  checking: 'Even nakijken: %s…',
  newChat: 'Nieuw gesprek',
  close: 'Chat sluiten',
  menu: 'Meer opties',
  open: 'Chat met %s openen',
  leave: 'Laat een bericht achter',
} satisfies Texts;
