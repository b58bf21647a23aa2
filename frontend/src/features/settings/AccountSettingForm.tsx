import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { useSnackbar } from 'notistack';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { userApi } from '../../api';
import type { SettingsResponse } from '../../api/types';
import { serverMessage } from '../../api/serverMessage';
import { SubmitButton } from '../../components/SubmitButton';

export interface AccountSettingTexts {
  /** The form's accessible name. */
  name: string;
  saveLabel: string;
  saved: string;
  saveFailed: string;
  loadFailed: string;
}

export interface AccountSettingFormProps<V> {
  /** The field's value from the saved settings. */
  read: (settings: SettingsResponse) => V;
  /** The settings to send for a value (only this setting: the others keep theirs). */
  write: (value: V) => Partial<SettingsResponse>;
  texts: AccountSettingTexts;
  /** The field, given its value (null until the saved settings have arrived) and a setter. */
  children: (value: V | null, setValue: (value: V) => void) => ReactNode;
}

/**
 * One account setting edited on its own (Settings > Usage's spend alert, Settings > Privacy's
 * retention): loads the saved settings, saves this one field, shows progress, toasts and the
 * server's reason when saving fails.
 */
export function AccountSettingForm<V>({ read, write, texts, children }: AccountSettingFormProps<V>) {
  const { enqueueSnackbar } = useSnackbar();
  const [value, setValue] = useState<V | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The first read wins: the parent passes a new function on every render.
  const [readSaved] = useState(() => read);

  useEffect(() => {
    let active = true;
    userApi.getSettings().then(
      (settings) => {
        if (active) setValue(readSaved(settings));
      },
      () => {
        if (active) setLoadFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [readSaved]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (value === null) return;
    setSaving(true);
    setError(null);
    try {
      setValue(read(await userApi.updateSettings(write(value))));
      enqueueSnackbar(texts.saved, { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure) ?? texts.saveFailed);
      enqueueSnackbar(texts.saveFailed, { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  if (loadFailed) return <Alert severity="error">{texts.loadFailed}</Alert>;
  return (
    <Box component="form" onSubmit={(event) => void save(event)} noValidate aria-label={texts.name}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        {children(value, setValue)}
        <SubmitButton label={texts.saveLabel} saving={saving} disabled={value === null} sx={{ mt: { sm: 1 } }} />
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
