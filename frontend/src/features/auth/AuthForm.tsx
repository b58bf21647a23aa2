import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { FormEvent, ReactNode } from 'react';

export interface AuthFormProps {
  /** Called on submit; the browser's own validation and page load are held back. */
  onSubmit: () => Promise<void>;
  /** Shown in red above the fields. */
  error: string | null;
  children: ReactNode;
}

/** The form of an auth page: its error above the fields, which are stacked. */
export function AuthForm({ onSubmit, error, children }: AuthFormProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void onSubmit();
  };

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2.25}>
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        {children}
      </Stack>
    </Box>
  );
}
