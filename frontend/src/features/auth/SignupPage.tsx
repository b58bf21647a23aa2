import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { identify, setPeople, track } from '../../analytics/analytics';
import { authApi } from '../../api';
import { AuthLayout } from './AuthLayout';
import {
  asksToCheckEmail,
  CHECK_YOUR_EMAIL,
  INVALID_EMAIL,
  isValidEmail,
  PASSWORD_HINT,
  PASSWORD_PATTERN,
  PASSWORDS_DO_NOT_MATCH,
  signupErrorText,
  TERMS_REQUIRED,
} from './authRules';
import { PasswordField } from './PasswordField';
import { SubmitButton } from './SubmitButton';

/**
 * /signup (brief sections 2, 4, 5, 8): Email, Password, Confirm Password and the terms checkbox.
 * On an answer that says "check your email" the form gives way to the confirmation view.
 */
export function SignupPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [weakPassword, setWeakPassword] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setNotice(null);
    setWeakPassword(false);
    if (!agreed) return setError(TERMS_REQUIRED);
    if (password !== confirm) return setError(PASSWORDS_DO_NOT_MATCH);
    if (!isValidEmail(email)) return setError(INVALID_EMAIL);
    if (!PASSWORD_PATTERN.test(password)) {
      setWeakPassword(true);
      return setError(PASSWORD_HINT);
    }

    setSubmitting(true);
    try {
      const { message } = await authApi.signup({ email, password });
      const normalised = email.trim().toLowerCase();
      identify(normalised);
      setPeople({ email: normalised, signupAt: new Date().toISOString() });
      track('Signup Completed', { email: normalised });
      if (asksToCheckEmail(message)) setConfirmation(message);
      else setNotice(message);
    } catch (cause) {
      setError(signupErrorText(cause));
    } finally {
      setSubmitting(false);
    }
  };

  if (confirmation !== null) {
    return (
      <AuthLayout title="Check your inbox">
        <Stack spacing={2.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Box
            sx={{
              width: 64,
              height: 64,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'primary.main',
              color: 'primary.contrastText',
            }}
          >
            <MarkEmailReadOutlined fontSize="large" aria-hidden />
          </Box>
          <Typography variant="body1" role="status">
            {confirmation}
          </Typography>
          {!confirmation.includes(CHECK_YOUR_EMAIL) && <Typography variant="body1">{CHECK_YOUR_EMAIL}</Typography>}
          <Typography variant="body2" color="textSecondary">
            We sent a link to <strong>{email.trim().toLowerCase()}</strong>. It works for 24 hours.
          </Typography>
          <Button component={RouterLink} to="/login" variant="contained" size="large" fullWidth>
            Go to Login
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign Up"
      subtitle="Create your account and get $5 in free credits for your bots."
      footer={
        <Typography variant="body2">
          <Link component={RouterLink} to="/login">
            Already a member? Log in
          </Link>
        </Typography>
      }
    >
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack spacing={2.25}>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          {notice && <Alert severity="info">{notice}</Alert>}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            autoFocus
          />
          <PasswordField
            label="Password"
            name="password"
            value={password}
            onChange={setPassword}
            autoComplete="new-password"
            helperText={PASSWORD_HINT}
            error={weakPassword}
          />
          <PasswordField
            label="Confirm Password"
            name="confirmPassword"
            value={confirm}
            onChange={setConfirm}
            autoComplete="new-password"
          />
          <FormControlLabel
            control={<Checkbox checked={agreed} onChange={(event) => setAgreed(event.target.checked)} />}
            label={
              <Typography variant="body2">
                I agree to the{' '}
                <Link href="/terms-of-service" target="_blank" rel="noopener">
                  Terms of Service
                </Link>{' '}
                and{' '}
                <Link href="/privacy-policy" target="_blank" rel="noopener">
                  Privacy Policy
                </Link>
                .
              </Typography>
            }
          />
          <SubmitButton label="Sign Up" loading={submitting} />
        </Stack>
      </Box>
    </AuthLayout>
  );
}
