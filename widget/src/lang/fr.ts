/** Français: the widget's own texts (see en.ts). */
import type { Texts } from '../lib/i18n';

export default {
  placeholder: 'Écrivez votre message ici...',
  botFailed: 'Impossible de charger les informations du bot.',
  error: 'Une erreur est survenue.',
  sendFailed: "Une erreur est survenue lors de l'envoi de votre message.",
  unavailable: 'Botsmith est momentanément indisponible. Veuillez réessayer dans un instant.',
  chatWith: 'Discuter avec %s',
  log: 'Conversation',
  input: 'Message',
  send: 'Envoyer le message',
  typing: "L'assistant écrit",
  checking: 'Je vérifie : %s…',
  newChat: 'Nouvelle conversation',
  close: 'Fermer le chat',
  menu: "Plus d'options",
  open: 'Ouvrir le chat avec %s',
  leave: 'Laisser un message',
} satisfies Texts;
