import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { userApi } from '../../api';
import { serverMessage } from '../../api/serverMessage';

/**
 * Settings > Account: the monthly report mail (docs/product.md#monthly-report), on by default.
 * A switch saves at once; it goes back when saving fails.
 */
export function MonthlyReportForm() {
  const { enqueueSnackbar } = useSnackbar();
  const [on, setOn] = useState<boolean | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    userApi.getSettings().then(
      (settings) => {
        if (active) setOn(settings.monthlyReport);
      },
      () => {
        if (active) setLoadFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, []);

  const save = async (next: boolean) => {
    const before = on;
    setOn(next);
    setSaving(true);
    setError(null);
    try {
      setOn((await userApi.updateSettings({ monthlyReport: next })).monthlyReport);
      enqueueSnackbar(next ? 'Monthly report turned on.' : 'Monthly report turned off.', { variant: 'success' });
    } catch (failure) {
      setOn(before);
      setError(serverMessage(failure) ?? 'Error saving the monthly report setting.');
      enqueueSnackbar('Error saving the monthly report setting.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  if (loadFailed) return <Alert severity="error">Error fetching the monthly report setting.</Alert>;
  return (
    <div>
      <FormControlLabel
        control={
          <Switch
            checked={on ?? false}
            disabled={on === null || saving}
            onChange={(event) => void save(event.target.checked)}
          />
        }
        label="Monthly report by e-mail"
      />
      <FormHelperText sx={{ mt: 0 }}>
        On the 3rd: last period&apos;s conversations, resolution rate, cost per resolved conversation, top topics and
        the questions your bots could not answer.
      </FormHelperText>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </div>
  );
}
