import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

export interface SetupStatusProps {
  /** What is happening now (shown with a spinner), unless there is an error. */
  message: string;
  error?: string | null;
  onRetry?: () => void;
}

/** The body of the setup pages: a spinner with a sentence, or the error and a way to retry. */
export function SetupStatus({ message, error, onRetry }: SetupStatusProps) {
  if (error) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="error" sx={{ width: '100%' }}>
          {error}
        </Alert>
        {onRetry && (
          <Button variant="contained" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status" aria-live="polite">
      <CircularProgress size={28} aria-hidden />
      <Typography variant="body1" color="textSecondary">
        {message}
      </Typography>
    </Stack>
  );
}
