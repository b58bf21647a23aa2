/** Deutsch: the lead form's and the conversation extras' texts (see en.ts). */
import type { ExtrasTexts } from '../../lib/i18n';

export default {
  talk: 'Mit einem Menschen sprechen',
  remove: 'Diese Unterhaltung löschen',
  removeFailed: 'Die Unterhaltung konnte nicht gelöscht werden. Bitte versuchen Sie es noch einmal.',
  leave: 'Nachricht hinterlassen',
  name: 'Name',
  email: 'E-Mail',
  phone: 'Telefon',
  message: 'Nachricht',
  submit: 'Senden',
  thanks: 'Danke! Wir melden uns bald bei Ihnen.',
  needContact: 'Bitte geben Sie Ihre E-Mail-Adresse oder Telefonnummer an.',
  leadFailed: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal.',
  rate: 'Diese Antwort bewerten',
  good: 'Gute Antwort',
  bad: 'Schlechte Antwort',
  sources: 'Quellen',
  cancel: 'Abbrechen',
  why: 'Was war an dieser Antwort falsch? (optional)',
  rated: 'Danke für Ihre Rückmeldung.',
} satisfies ExtrasTexts;
