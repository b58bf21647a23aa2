/** Português: the widget's own texts (see en.ts). */
import type { Texts } from '../lib/i18n';

export default {
  placeholder: 'Escreva sua mensagem aqui...',
  botFailed: 'Não foi possível carregar os dados do bot.',
  error: 'Ocorreu um erro.',
  sendFailed: 'Ocorreu um erro ao enviar sua mensagem.',
  unavailable: 'O Botsmith está indisponível no momento. Tente novamente em instantes.',
  chatWith: 'Conversar com %s',
  log: 'Conversa',
  input: 'Mensagem',
  send: 'Enviar mensagem',
  typing: 'O assistente está digitando',
  checking: 'Verificando: %s…',
  newChat: 'Nova conversa',
  close: 'Fechar o chat',
  menu: 'Mais opções',
  open: 'Abrir o chat com %s',
  leave: 'Deixar uma mensagem',
} satisfies Texts;
