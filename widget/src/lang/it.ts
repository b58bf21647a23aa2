/** Italiano: the widget's own texts (see en.ts). */
import type { Texts } from '../lib/i18n';

export default {
  placeholder: 'Scrivi qui il tuo messaggio...',
  botFailed: 'Impossibile caricare i dati del bot.',
  error: 'Si è verificato un errore.',
  sendFailed: "Si è verificato un errore durante l'invio del messaggio.",
  unavailable: 'Botsmith non è disponibile al momento. Riprova tra poco.',
  chatWith: 'Chatta con %s',
  log: 'Conversazione',
  input: 'Messaggio',
  send: 'Invia messaggio',
  typing: "L'assistente sta scrivendo",
  checking: 'Sto controllando: %s…',
  newChat: 'Nuova conversazione',
  close: 'Chiudi la chat',
  menu: 'Altre opzioni',
  open: 'Apri la chat con %s',
  leave: 'Lascia un messaggio',
} satisfies Texts;
