/** Français: the lead form's and the conversation extras' texts (see en.ts). */
import type { ExtrasTexts } from '../../lib/i18n';

export default {
  talk: 'Parler à une personne',
  remove: 'Supprimer cette conversation',
  removeFailed: "La conversation n'a pas pu être supprimée. Veuillez réessayer.",
  leave: 'Laisser un message',
  name: 'Nom',
  email: 'E-mail',
  phone: 'Téléphone',
  message: 'Message',
  submit: 'Envoyer',
  thanks: 'Merci ! Nous vous répondrons bientôt.',
  needContact: 'Veuillez indiquer votre e-mail ou votre numéro de téléphone.',
  leadFailed: "Votre message n'a pas pu être envoyé. Veuillez réessayer.",
  rate: 'Évaluer cette réponse',
  good: 'Bonne réponse',
  bad: 'Mauvaise réponse',
  sources: 'Sources',
  cancel: 'Annuler',
  why: "Qu'est-ce qui n'allait pas dans cette réponse ? (facultatif)",
  rated: 'Merci pour votre avis.',
} satisfies ExtrasTexts;
