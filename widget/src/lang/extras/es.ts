/** Español: the lead form's and the conversation extras' texts (see en.ts). */
import type { ExtrasTexts } from '../../lib/i18n';

export default {
  talk: 'Hablar con una persona',
  remove: 'Eliminar esta conversación',
  removeFailed: 'No se pudo eliminar la conversación. Inténtalo de nuevo.',
  leave: 'Dejar un mensaje',
  name: 'Nombre',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  message: 'Mensaje',
  submit: 'Enviar',
  thanks: '¡Gracias! Te responderemos pronto.',
  needContact: 'Deja tu correo electrónico o tu número de teléfono.',
  leadFailed: 'No se pudo enviar tu mensaje. Inténtalo de nuevo.',
  rate: 'Valora esta respuesta',
  good: 'Buena respuesta',
  bad: 'Mala respuesta',
  sources: 'Fuentes',
  cancel: 'Cancelar',
  why: '¿Qué falló en esta respuesta? (opcional)',
  rated: 'Gracias por su opinión.',
} satisfies ExtrasTexts;
