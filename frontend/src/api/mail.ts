import type { MailUsageResponse, NotifyEmailsResponse } from '@botsmith/contract';
import { apiFetch } from './client';

/** Mail consent (docs/product.md#mail-consent): lead addresses' states and the account's mail of the day. */
export const mailApi = {
  usage: () => apiFetch<MailUsageResponse>('/api/mail/usage'),
  notifyEmails: (botId: number) => apiFetch<NotifyEmailsResponse>(`/api/bots/${botId}/notify-emails`),
  resend: (botId: number, email: string) =>
    apiFetch<NotifyEmailsResponse>(`/api/bots/${botId}/notify-emails/resend`, { method: 'POST', body: { email } }),
};
