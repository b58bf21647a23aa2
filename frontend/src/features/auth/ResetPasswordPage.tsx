import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { authApi } from '../../api';
import { AuthLayout } from './AuthLayout';
import {
  PASSWORD_HINT,
  PASSWORD_PATTERN,
  PASSWORDS_DO_NOT_MATCH,
  RESET_REDIRECT_MS,
  resetErrorText,
} from './authRules';
import { PasswordField } from './PasswordField';
import { SubmitButton } from './SubmitButton';

/** /reset-password/:token: New Password, Confirm Password; on success the message, then /login after 2 s. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [weakPassword, setWeakPassword] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (done === null) return;
    const timer = window.setTimeout(() => void navigate('/login', { replace: true }), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setWeakPassword(false);
    if (password !== confirm) return setError(PASSWORDS_DO_NOT_MATCH);
    if (!PASSWORD_PATTERN.test(password)) {
      setWeakPassword(true);
      return setError(PASSWORD_HINT);
    }
    setSubmitting(true);
    try {
      const { message } = await authApi.resetPassword(token, password);
      setDone(message || 'Your password has been reset.');
    } catch (cause) {
      setError(resetErrorText(cause));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title="Reset Password"
      subtitle={done === null ? 'Choose a new password for your account.' : undefined}
      footer={
        <Typography variant="body2">
          <Link component={RouterLink} to="/login">
            Back to Log In
          </Link>
        </Typography>
      }
    >
      {done !== null ? (
        <Stack spacing={2}>
          <Alert severity="success" role="status">
            {done}
          </Alert>
          <Typography variant="body2" color="textSecondary">
            Taking you to the login page…
          </Typography>
        </Stack>
      ) : (
        <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <Stack spacing={2.25}>
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
            <PasswordField
              label="New Password"
              name="password"
              value={password}
              onChange={setPassword}
              autoComplete="new-password"
              helperText={PASSWORD_HINT}
              error={weakPassword}
              autoFocus
            />
            <PasswordField
              label="Confirm Password"
              name="confirmPassword"
              value={confirm}
              onChange={setConfirm}
              autoComplete="new-password"
            />
            <SubmitButton label="Reset Password" loading={submitting} />
          </Stack>
        </Box>
      )}
    </AuthLayout>
  );
}
