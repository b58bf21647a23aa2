/** Português: the lead form's and the conversation extras' texts (see en.ts). */
import type { ExtrasTexts } from '../../lib/i18n';

export default {
  talk: 'Falar com uma pessoa',
  remove: 'Excluir esta conversa',
  removeFailed: 'Não foi possível excluir a conversa. Tente novamente.',
  leave: 'Deixar uma mensagem',
  name: 'Nome',
  email: 'E-mail',
  phone: 'Telefone',
  message: 'Mensagem',
  submit: 'Enviar',
  thanks: 'Obrigado! Responderemos em breve.',
  needContact: 'Informe seu e-mail ou telefone.',
  leadFailed: 'Não foi possível enviar sua mensagem. Tente novamente.',
  rate: 'Avaliar esta resposta',
  good: 'Boa resposta',
  bad: 'Resposta ruim',
  sources: 'Fontes',
  cancel: 'Cancelar',
  why: 'O que estava errado nesta resposta? (opcional)',
  rated: 'Obrigado pela sua opinião.',
} satisfies ExtrasTexts;
