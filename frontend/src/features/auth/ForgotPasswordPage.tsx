import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { authApi } from '../../api';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { errorPrefixed, INVALID_EMAIL, isValidEmail, RESET_INSTRUCTIONS_SENT } from './authRules';
import { EmailField } from './EmailField';
import { SubmitButton } from './SubmitButton';
import { useAuthSubmit } from './useAuthSubmit';

/** /forgot-password: the e-mail, 'Send Reset Link', then the server's message in place of the form. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { error, setError, submitting, submit } = useAuthSubmit();

  const onSubmit = async () => {
    setError(null);
    if (!isValidEmail(email)) return setError(INVALID_EMAIL);
    await submit(async () => {
      const { message } = await authApi.forgotPassword(email);
      setSent(message || RESET_INSTRUCTIONS_SENT);
    }, errorPrefixed);
  };

  const footer = (
    <Typography variant="body2">
      Remembered it?{' '}
      <Link component={RouterLink} to="/login">
        Back to Log In
      </Link>
    </Typography>
  );

  if (sent !== null) {
    return (
      <AuthLayout title="Forgot Password">
        <Stack spacing={2.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <MarkEmailReadOutlined color="primary" sx={{ fontSize: 48 }} aria-hidden />
          <Typography variant="body1" role="status">
            {sent}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            The link works for 1 hour. Check your spam folder if it does not arrive.
          </Typography>
          <Button component={RouterLink} to="/login" variant="outlined" fullWidth>
            Go to Login
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot Password"
      subtitle="Enter the email of your account and we will send you a link to choose a new password."
      footer={footer}
    >
      <AuthForm onSubmit={onSubmit} error={error}>
        <EmailField value={email} onChange={setEmail} />
        <SubmitButton label="Send Reset Link" loading={submitting} />
      </AuthForm>
    </AuthLayout>
  );
}
