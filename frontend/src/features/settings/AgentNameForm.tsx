import TextField from '@mui/material/TextField';
import { OWNER_REPLY_LIMITS } from '@botsmith/contract';
import { AccountSettingForm } from './AccountSettingForm';

const MAX = OWNER_REPLY_LIMITS.agentNameMaxChars;

const TEXTS = {
  name: 'Reply name',
  saveLabel: 'Save',
  saved: 'Name on your replies saved.',
  saveFailed: 'Error saving the name on your replies.',
  loadFailed: 'Error fetching the name on your replies.',
};

/**
 * Settings > Account: the name visitors see on the owner's replies from the inbox
 * (docs/product.md#owner-replies). Each reply keeps the name it was sent with.
 */
export function AgentNameForm() {
  return (
    <AccountSettingForm<string>
      read={(settings) => settings.agentName}
      write={(value) => ({ agentName: value.trim() })}
      texts={TEXTS}
    >
      {(value, setValue) => {
        const length = value?.trim().length ?? 0;
        const invalid = value !== null && (length === 0 || length > MAX);
        return (
          <TextField
            label="Name on your replies"
            value={value ?? ''}
            onChange={(event) => setValue(event.target.value)}
            error={invalid}
            helperText={
              invalid
                ? `Use 1 to ${MAX} characters.`
                : 'Visitors see it on your replies from the conversations inbox, e.g. "Ana at Acme".'
            }
            disabled={value === null}
            slotProps={{ htmlInput: { maxLength: MAX + 10 } }}
            sx={{ minWidth: { sm: 360 }, maxWidth: { sm: 420 } }}
          />
        );
      }}
    </AccountSettingForm>
  );
}
