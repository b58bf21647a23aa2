import Box from '@mui/material/Box';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { USAGE_LIMIT_MAX_DIGITS, usageLimitInput } from './usageLimit';

export interface WholeDollarFieldProps {
  label: string;
  /** The digits typed so far ('' when empty). */
  value: string;
  /** Called with the digits only (anything else typed or pasted is dropped). */
  onChange: (digits: string) => void;
  helperText: string;
  disabled?: boolean;
  sx?: TextFieldProps['sx'];
}

/** A whole-dollar amount: "$" in front, digits only, at most USAGE_LIMIT_MAX_DIGITS of them. */
export function WholeDollarField({ label, value, onChange, helperText, disabled, sx }: WholeDollarFieldProps) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(usageLimitInput(event.target.value))}
      helperText={helperText}
      disabled={disabled}
      sx={sx}
      slotProps={{
        htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: USAGE_LIMIT_MAX_DIGITS },
        input: {
          startAdornment: (
            <Box component="span" sx={{ mr: 0.5, color: 'text.secondary' }}>
              $
            </Box>
          ),
        },
      }}
    />
  );
}
