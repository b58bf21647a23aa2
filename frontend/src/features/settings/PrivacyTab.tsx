import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ConversationRetentionDays } from '@botsmith/contract';
import { AccountSettingForm } from './AccountSettingForm';

/** The select's values: MUI's select cannot hold null, so "forever" has a name of its own. */
const FOREVER = 'forever';

const RETENTION_OPTIONS: Array<{ value: string; days: ConversationRetentionDays; label: string }> = [
  { value: '30', days: 30, label: '30 days' },
  { value: '90', days: 90, label: '90 days' },
  { value: '365', days: 365, label: '1 year' },
  { value: FOREVER, days: null, label: 'Forever' },
];

const valueOf = (days: ConversationRetentionDays) => (days === null ? FOREVER : String(days));
const daysOf = (value: string) => RETENTION_OPTIONS.find((option) => option.value === value)?.days ?? null;

const TEXTS = {
  name: 'Privacy',
  saveLabel: 'Save',
  saved: 'Privacy settings saved.',
  saveFailed: 'Error saving privacy settings.',
  loadFailed: 'Error fetching your privacy settings.',
};

/**
 * Settings > Privacy: how long visitors' conversations are kept after their last message
 * (docs/product.md#retention-and-visitor-privacy). A daily job deletes older ones.
 */
export function PrivacyTab() {
  return (
    <AccountSettingForm<string>
      read={(settings) => valueOf(settings.conversationRetentionDays)}
      write={(value) => ({ conversationRetentionDays: daysOf(value) })}
      texts={TEXTS}
    >
      {(value, setValue) => (
        <TextField
          select
          label="Keep visitors' conversations for"
          value={value ?? ''}
          onChange={(event) => setValue(event.target.value)}
          helperText="Counted from a conversation's last message. Older conversations are deleted every day, with their messages; your usage figures do not change."
          disabled={value === null}
          sx={{ minWidth: { sm: 360 }, maxWidth: { sm: 420 } }}
        >
          {RETENTION_OPTIONS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    </AccountSettingForm>
  );
}
