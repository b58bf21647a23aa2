import TextField from '@mui/material/TextField';

export interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
}

/** The Email input of the auth forms; it comes first, so it takes the focus. */
export function EmailField({ value, onChange }: EmailFieldProps) {
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
    />
  );
}
