import Alert, { type AlertProps } from '@mui/material/Alert';
import Button from '@mui/material/Button';

export type RetryAlertProps = Omit<AlertProps, 'severity' | 'action'> & {
  /** Loads again what failed to load. */
  onRetry: () => void;
};

/** An error that something could not be loaded, with a Retry button that loads it again. */
export function RetryAlert({ onRetry, children, ...props }: RetryAlertProps) {
  return (
    <Alert
      {...props}
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
