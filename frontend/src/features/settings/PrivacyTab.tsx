import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ConversationRetentionDays } from '@botsmith/contract';
import { useSnackbar } from 'notistack';
import { useEffect, useState, type FormEvent } from 'react';
import { userApi } from '../../api';
import { serverMessage } from '../bots/botForms';

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

/**
 * Settings > Privacy: how long visitors' conversations are kept after their last message
 * (docs/product.md#retention-and-visitor-privacy). A daily job deletes older ones.
 */
export function PrivacyTab() {
  const { enqueueSnackbar } = useSnackbar();
  /** The select's value; null until the saved setting has arrived. */
  const [value, setValue] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    userApi.getSettings().then(
      (settings) => {
        if (active) setValue(valueOf(settings.conversationRetentionDays));
      },
      () => {
        if (active) setLoadFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (value === null) return;
    setSaving(true);
    setError(null);
    try {
      const saved = await userApi.updateSettings({ conversationRetentionDays: daysOf(value) });
      setValue(valueOf(saved.conversationRetentionDays));
      enqueueSnackbar('Privacy settings saved.', { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure) ?? 'Error saving privacy settings.');
      enqueueSnackbar('Error saving privacy settings.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  if (loadFailed) return <Alert severity="error">Error fetching your privacy settings.</Alert>;
  return (
    <Box component="form" onSubmit={(event) => void save(event)} noValidate aria-label="Privacy">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
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
        <Button type="submit" variant="contained" disabled={value === null || saving} sx={{ mt: { sm: 1 } }}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
