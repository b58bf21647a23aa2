import Button from '@mui/material/Button';

export interface SubmitButtonProps {
  label: string;
  /** While the request is in flight the button reads 'Loading...' and cannot be pressed again. */
  loading: boolean;
}

export function SubmitButton({ label, loading }: SubmitButtonProps) {
  return (
    <Button type="submit" variant="contained" size="large" fullWidth disabled={loading} aria-busy={loading}>
      {loading ? 'Loading...' : label}
    </Button>
  );
}
