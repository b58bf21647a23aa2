import Alert from '@mui/material/Alert';
import { mailApi } from '../api';
import { useApiResource } from '../hooks/useApiResource';

export interface MailLimitNoticeProps {
  /** What stays where the owner looks: "leads" or "replies". */
  kept: 'leads' | 'replies';
}

/**
 * Says when the account's mails of the day are spent (docs/product.md#mail-consent): lead notices
 * and replies are then not e-mailed until tomorrow, but nothing is lost. Shows nothing otherwise,
 * nor when the figure cannot be read.
 */
export function MailLimitNotice({ kept }: MailLimitNoticeProps) {
  const usage = useApiResource(mailApi.usage);
  if (usage.status !== 'ready' || !usage.data.limitReached) return null;
  const what = kept === 'leads' ? 'New leads' : 'Your replies';
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      Your account reached its daily e-mail limit ({usage.data.dailyLimit} e-mails). {what} are kept here but not
      e-mailed until tomorrow (UTC).
    </Alert>
  );
}
