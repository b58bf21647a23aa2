/** 日本語: the lead form's and the conversation extras' texts (see en.ts). */
import type { ExtrasTexts } from '../../lib/i18n';

export default {
  talk: '担当者と話す',
  remove: 'この会話を削除',
  removeFailed: '会話を削除できませんでした。',
  leave: 'メッセージを残す',
  name: 'お名前',
  email: 'メール',
  phone: '電話番号',
  message: 'メッセージ',
  submit: '送信',
  thanks: 'ありがとうございます。折り返しご連絡します。',
  needContact: 'メールか電話番号を入力してください。',
  leadFailed: '送信できませんでした。もう一度お試しください。',
  rate: 'この回答を評価',
  good: '良い回答',
  bad: '良くない回答',
  sources: '出典',
  cancel: 'キャンセル',
  why: 'この回答の問題点は何でしたか？（任意）',
  rated: 'ご意見ありがとうございます。',
} satisfies ExtrasTexts;
