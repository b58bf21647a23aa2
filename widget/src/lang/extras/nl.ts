/** Nederlands: the lead form's and the conversation extras' texts (see en.ts). */
import type { ExtrasTexts } from '../../lib/i18n';

export default {
  talk: 'Met een persoon praten',
  remove: 'Dit gesprek verwijderen',
  removeFailed: 'Het gesprek kon niet worden verwijderd. Probeer het opnieuw.',
  leave: 'Laat een bericht achter',
  name: 'Naam',
  email: 'E-mail',
  phone: 'Telefoon',
  message: 'Bericht',
  submit: 'Versturen',
  thanks: 'Bedankt! We nemen snel contact met je op.',
  needContact: 'Vul je e-mailadres of telefoonnummer in.',
  leadFailed: 'Je bericht kon niet worden verstuurd. Probeer het opnieuw.',
  rate: 'Beoordeel dit antwoord',
  good: 'Goed antwoord',
  bad: 'Slecht antwoord',
  sources: 'Bronnen',
  cancel: 'Annuleren',
  why: 'Wat was er mis met dit antwoord? (optioneel)',
  rated: 'Bedankt voor uw feedback.',
} satisfies ExtrasTexts;
