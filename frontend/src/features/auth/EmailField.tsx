import TextField from '@mui/material/TextField';

export interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** A message for this field alone (sign-up marks each field with its own). */
  error?: string | null;
}

/** The Email input of the auth forms; it comes first, so it takes the focus. */
export function EmailField({ value, onChange, error }: EmailFieldProps) {
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      autoFocus
      error={Boolean(error)}
      helperText={error || undefined}
    />
  );
}
