/** Italiano: the lead form's and the conversation extras' texts (see en.ts). */
import type { ExtrasTexts } from '../../lib/i18n';

export default {
  talk: 'Parla con una persona',
  remove: 'Elimina questa conversazione',
  removeFailed: 'Non è stato possibile eliminare la conversazione. Riprova.',
  leave: 'Lascia un messaggio',
  name: 'Nome',
  email: 'E-mail',
  phone: 'Telefono',
  message: 'Messaggio',
  submit: 'Invia',
  thanks: 'Grazie! Ti risponderemo presto.',
  needContact: 'Indica la tua e-mail o il tuo numero di telefono.',
  leadFailed: 'Non è stato possibile inviare il messaggio. Riprova.',
  rate: 'Valuta questa risposta',
  good: 'Risposta utile',
  bad: 'Risposta non utile',
  sources: 'Fonti',
  cancel: 'Annulla',
  why: 'Che cosa non andava in questa risposta? (facoltativo)',
  rated: 'Grazie per il suo riscontro.',
} satisfies ExtrasTexts;
