import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import { useState, type InputHTMLAttributes } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { identify, setPeople, track } from '../../analytics/analytics';
import { authApi } from '../../api';
import { AuthForm } from './AuthForm';
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
import { EmailField } from './EmailField';
import { NewPasswordFields } from './NewPasswordFields';
import { SubmitButton } from './SubmitButton';
import { useAuthSubmit } from './useAuthSubmit';
import { FREE_CREDITS } from '../../layout/prices';

/** Each sign-up field's own message; a field without one is fine. Keys are the inputs' names. */
export interface SignupFieldErrors {
  email?: string;
  password?: string;
  confirmPassword?: string;
  terms?: string;
}

const FIELD_ORDER = ['email', 'password', 'confirmPassword', 'terms'] as const;

/** All of the form's problems at once, each with its sentence from docs/product.md#form-messages. */
function signupFieldErrors(form: {
  email: string;
  password: string;
  confirm: string;
  agreed: boolean;
}): SignupFieldErrors {
  const errors: SignupFieldErrors = {};
  if (!isValidEmail(form.email)) errors.email = INVALID_EMAIL;
  if (!PASSWORD_PATTERN.test(form.password)) errors.password = PASSWORD_HINT;
  if (form.password !== form.confirm) errors.confirmPassword = PASSWORDS_DO_NOT_MATCH;
  if (!form.agreed) errors.terms = TERMS_REQUIRED;
  return errors;
}

/**
 * /signup (docs/product.md#account-screens): Email, Password, Confirm Password and the terms checkbox.
 * On an answer that says "check your email" the form gives way to the confirmation view.
 */
export function SignupPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<SignupFieldErrors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const { error, setError, submitting, submit } = useAuthSubmit();

  const onSubmit = async () => {
    setError(null);
    setNotice(null);
    // Every field is checked at once and marked with its own message (docs/product.md#account-screens).
    const errors = signupFieldErrors({ email, password, confirm, agreed });
    setFieldErrors(errors);
    const first = FIELD_ORDER.find((field) => errors[field]);
    if (first) {
      document.querySelector<HTMLInputElement>(`form [name="${first}"]`)?.focus();
      return;
    }

    await submit(async () => {
      const { message } = await authApi.signup({ email, password });
      const normalised = email.trim().toLowerCase();
      identify(normalised);
      setPeople({ email: normalised, signupAt: new Date().toISOString() });
      track('Signup Completed', { email: normalised });
      if (asksToCheckEmail(message)) setConfirmation(message);
      else setNotice(message);
    }, signupErrorText);
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
      subtitle={`Create your account and get ${FREE_CREDITS} in free credits for your bots.`}
      footer={
        <Typography variant="body2">
          <Link component={RouterLink} to="/login">
            Already a member? Log in
          </Link>
        </Typography>
      }
    >
      <AuthForm onSubmit={onSubmit} error={error}>
        {notice && <Alert severity="info">{notice}</Alert>}
        <EmailField value={email} onChange={setEmail} error={fieldErrors.email} />
        <NewPasswordFields
          label="Password"
          password={password}
          onPasswordChange={setPassword}
          confirm={confirm}
          onConfirmChange={setConfirm}
          weak={Boolean(fieldErrors.password)}
          confirmError={fieldErrors.confirmPassword}
        />
        <FormControl error={Boolean(fieldErrors.terms)}>
          <FormControlLabel
            control={
              <Checkbox
                name="terms"
                checked={agreed}
                onChange={(event) => setAgreed(event.target.checked)}
                slotProps={{
                  input: {
                    'aria-invalid': Boolean(fieldErrors.terms),
                    'aria-describedby': fieldErrors.terms ? 'signup-terms-error' : undefined,
                  } as InputHTMLAttributes<HTMLInputElement>,
                }}
              />
            }
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
          {fieldErrors.terms && (
            <FormHelperText id="signup-terms-error" sx={{ mt: 0 }}>
              {fieldErrors.terms}
            </FormHelperText>
          )}
        </FormControl>
        <SubmitButton label="Sign Up" loading={submitting} />
      </AuthForm>
    </AuthLayout>
  );
}
