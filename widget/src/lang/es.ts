/** Español: the widget's own texts (see en.ts). */
import type { Texts } from '../lib/i18n';

export default {
  placeholder: 'Escribe tu mensaje aquí...',
  botFailed: 'No se pudieron cargar los datos del bot.',
  error: 'Se produjo un error.',
  sendFailed: 'Se produjo un error al enviar tu mensaje.',
  unavailable: 'Botsmith no está disponible en este momento. Inténtalo de nuevo en unos instantes.',
  chatWith: 'Chatear con %s',
  log: 'Conversación',
  input: 'Mensaje',
  send: 'Enviar mensaje',
  typing: 'El asistente está escribiendo',
  checking: 'Consultando: %s…',
  newChat: 'Nueva conversación',
  close: 'Cerrar el chat',
  menu: 'Más opciones',
  open: 'Abrir el chat con %s',
  leave: 'Dejar un mensaje',
} satisfies Texts;
