import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { identify, setPeople, track } from '../../analytics/analytics';
import { authApi, userApi } from '../../api';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import {
  errorPrefixed,
  INVALID_EMAIL,
  isValidEmail,
  loginErrorText,
  PASSWORD_REQUIRED,
  routeAfterLogin,
} from './authRules';
import { EmailField } from './EmailField';
import { PasswordField } from './PasswordField';
import { SubmitButton } from './SubmitButton';

/**
 * /login and /signin (docs/product.md#account-screens, #after-login). An existing session goes straight to /dashboard;
 * after a login the current user decides where the owner lands.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    let active = true;
    userApi.me().then(
      () => {
        if (active) void navigate('/dashboard', { replace: true });
      },
      () => {
        // No session: stay on the form.
      },
    );
    return () => {
      active = false;
    };
  }, [navigate]);

  const onSubmit = async () => {
    setError(null);
    if (!isValidEmail(email)) return setError(INVALID_EMAIL);
    if (!password) return setError(PASSWORD_REQUIRED);

    setSubmitting(true);
    try {
      await authApi.login({ email, password });
    } catch (cause) {
      setError(loginErrorText(cause));
      setSubmitting(false);
      return;
    }
    try {
      const user = await userApi.me();
      identify(user.id);
      setPeople({ email: user.email, lastLoginAt: new Date().toISOString() });
      await navigate(routeAfterLogin(user), { replace: true });
    } catch (cause) {
      setError(errorPrefixed(cause));
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title="Log In"
      subtitle="Welcome back. Sign in to manage your bots."
      footer={
        <Typography variant="body2">
          New here?{' '}
          <Link
            component={RouterLink}
            to="/signup"
            onClick={() => track('CTA Clicked', { cta_name: 'Login Page: Sign Up' })}
          >
            Sign up
          </Link>
        </Typography>
      }
    >
      <AuthForm onSubmit={onSubmit} error={error}>
        <EmailField value={email} onChange={setEmail} />
        <PasswordField
          label="Password"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: -1 }}>
          <Link component={RouterLink} to="/forgot-password" variant="body2">
            Forgot password
          </Link>
        </Box>
        <SubmitButton label="Log In" loading={submitting} />
      </AuthForm>
    </AuthLayout>
  );
}
