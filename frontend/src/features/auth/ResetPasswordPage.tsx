import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { authApi } from '../../api';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import {
  PASSWORD_HINT,
  PASSWORD_PATTERN,
  PASSWORDS_DO_NOT_MATCH,
  RESET_REDIRECT_MS,
  resetErrorText,
} from './authRules';
import { NewPasswordFields } from './NewPasswordFields';
import { SubmitButton } from './SubmitButton';
import { useAuthSubmit } from './useAuthSubmit';

/** /reset-password/:token: New Password, Confirm Password; on success the message, then /login after 2 s. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [weakPassword, setWeakPassword] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const { error, setError, submitting, submit } = useAuthSubmit();

  useEffect(() => {
    if (done === null) return;
    const timer = window.setTimeout(() => void navigate('/login', { replace: true }), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = async () => {
    setError(null);
    setWeakPassword(false);
    if (password !== confirm) return setError(PASSWORDS_DO_NOT_MATCH);
    if (!PASSWORD_PATTERN.test(password)) {
      setWeakPassword(true);
      return setError(PASSWORD_HINT);
    }
    await submit(async () => {
      const { message } = await authApi.resetPassword(token, password);
      setDone(message || 'Your password has been reset.');
    }, resetErrorText);
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
        <AuthForm onSubmit={onSubmit} error={error}>
          <NewPasswordFields
            label="New Password"
            password={password}
            onPasswordChange={setPassword}
            confirm={confirm}
            onConfirmChange={setConfirm}
            weak={weakPassword}
            autoFocus
          />
          <SubmitButton label="Reset Password" loading={submitting} />
        </AuthForm>
      )}
    </AuthLayout>
  );
}
