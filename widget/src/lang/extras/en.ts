/**
 * The lead form's and the conversation extras' texts in English, the model for every file here
 * (each exports the same keys, `satisfies ExtrasTexts`). They belong to the window's second chunk
 * (src/extras/), built once per language with `#extras-texts` pointing here (vite.config.ts), so
 * they cost nothing until a conversation starts or a form is offered. Quoted product texts come
 * from @botsmith/contract.
 */
import { LEAD_THANK_YOU_DEFAULT } from '@botsmith/contract';

export default {
  talk: 'Talk to a person',
  remove: 'Delete this conversation',
  removeFailed: 'The conversation could not be deleted. Please try again.',
  leave: 'Leave a message',
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  message: 'Message',
  submit: 'Send',
  thanks: LEAD_THANK_YOU_DEFAULT,
  needContact: 'Please leave your e-mail or phone number.',
  leadFailed: 'Your message could not be sent. Please try again.',
  rate: 'Rate this answer',
  good: 'Good answer',
  bad: 'Bad answer',
  sources: 'Sources',
  cancel: 'Cancel',
  why: 'What was wrong with this answer? (optional)',
  rated: 'Thank you for your feedback.',
};
