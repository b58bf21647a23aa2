/** 日本語: the widget's own texts (see en.ts). */
import type { Texts } from '../lib/i18n';

export default {
  placeholder: 'メッセージを入力...',
  botFailed: 'ボット情報を読み込めませんでした。',
  error: 'エラーが発生しました。',
  sendFailed: 'メッセージを送信できませんでした。',
  unavailable: 'Botsmith は一時的に停止中です。少し後でお試しください。',
  chatWith: '%s とチャット',
  log: '会話',
  input: 'メッセージ',
  send: 'メッセージを送信',
  typing: 'アシスタントが入力中',
  checking: '確認しています: %s…',
  newChat: '新しい会話',
  close: '閉じる',
  menu: 'メニュー',
  open: '%sとのチャットを開く',
  leave: 'メッセージを残す',
} satisfies Texts;
