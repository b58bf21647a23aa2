import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { browserTimeZone } from '../insights/useOwnerTimeZone';
import { AccountSettingForm } from './AccountSettingForm';

const TEXTS = {
  name: 'Time zone',
  saveLabel: 'Save time zone',
  saved: 'Time zone saved.',
  saveFailed: 'Error saving the time zone.',
  loadFailed: 'Error fetching the time zone.',
};

/** '' stands for "the browser's" (saved as null). */
const BROWSER = '';

/** The IANA zones this browser knows, the saved one included even if it does not. */
function zoneOptions(saved: string | null): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = saved && saved !== BROWSER && !known.includes(saved) ? [...known, saved].sort() : known;
  return [BROWSER, ...zones];
}

/**
 * Settings > Account: the time zone Insights counts days and hours in, and the monthly report's
 * days (docs/product.md#monthly-report); "Browser default" until the owner picks one.
 */
export function TimeZoneForm() {
  const [browser] = useState(browserTimeZone);
  const label = (zone: string) => (zone === BROWSER ? `Browser default (${browser})` : zone);
  return (
    <AccountSettingForm<string>
      read={(settings) => settings.timeZone ?? BROWSER}
      write={(value) => ({ timeZone: value === BROWSER ? null : value })}
      texts={TEXTS}
    >
      {(value, setValue) => (
        <Autocomplete
          options={zoneOptions(value)}
          value={value ?? BROWSER}
          onChange={(_event, next: string) => setValue(next)}
          getOptionLabel={label}
          disableClearable
          disabled={value === null}
          sx={{ minWidth: { sm: 360 }, maxWidth: { sm: 420 } }}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Time zone"
              helperText="Insights and the monthly report count days and hours in this zone."
            />
          )}
        />
      )}
    </AccountSettingForm>
  );
}
