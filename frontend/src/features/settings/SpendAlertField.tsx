import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useSnackbar } from 'notistack';
import { useEffect, useState, type FormEvent } from 'react';
import { userApi } from '../../api';
import { serverMessage } from '../bots/botForms';
import { usageLimitValue } from '../usage/usageLimit';
import { WholeDollarField } from '../usage/WholeDollarField';

/**
 * Settings > Usage: the account spend alert. The owner is e-mailed each time this billing
 * period's spend, over all bots, passes another 50% of this amount; 0 turns the e-mails off.
 */
export function SpendAlertField() {
  const { enqueueSnackbar } = useSnackbar();
  /** The field's text; null until the saved value has arrived. */
  const [text, setText] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    userApi.getSettings().then(
      (settings) => {
        if (active) setText(String(settings.spendAlertDollars));
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
    if (text === null) return;
    setSaving(true);
    setError(null);
    try {
      const saved = await userApi.updateSettings({ spendAlertDollars: usageLimitValue(text) });
      setText(String(saved.spendAlertDollars));
      enqueueSnackbar('Spend alert saved.', { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure) ?? 'Error saving spend alert.');
      enqueueSnackbar('Error saving spend alert.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  if (loadFailed) return <Alert severity="error">Error fetching your spend alert.</Alert>;
  return (
    <Box component="form" onSubmit={(event) => void save(event)} noValidate aria-label="Spend alert">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <WholeDollarField
          label="Spend alert (USD per month)"
          value={text ?? ''}
          onChange={setText}
          helperText="We email you each time this month's spend, over all your bots, passes another 50% of this amount. 0 turns these emails off."
          disabled={text === null}
          sx={{ maxWidth: { sm: 360 } }}
        />
        <Button type="submit" variant="contained" disabled={text === null || saving} sx={{ mt: { sm: 1 } }}>
          {saving ? 'Saving…' : 'Save alert'}
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
