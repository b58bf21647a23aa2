import { useState } from 'react';
import { ApiError, authApi } from '../../api';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { PASSWORD_REQUIRED, verifiedOutcome, verifyErrorText, type VerifyOutcome } from './authRules';
import { PasswordField } from './PasswordField';
import { SubmitButton } from './SubmitButton';
import { useAuthSubmit } from './useAuthSubmit';

/** A dead link ends the page like a failed verification; anything else (a wrong password) lets the person retry. */
function endsTheLink(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'INVALID_TOKEN';
}

export interface ConfirmPasswordStepProps {
  token: string;
  /** The server's sentence saying why the password is asked for. */
  question: string;
  onDone: (outcome: VerifyOutcome) => void;
}

/**
 * The password step of /verify-email/:token, when the link is opened in another browser than the
 * signup's: one password field and a button. A wrong password stays on the step with the
 * server's sentence; a dead link ends like a failed verification.
 */
export function ConfirmPasswordStep({ token, question, onDone }: ConfirmPasswordStepProps) {
  const [password, setPassword] = useState('');
  const { error, setError, submitting, submit } = useAuthSubmit();

  const onSubmit = async () => {
    setError(null);
    if (!password) return setError(PASSWORD_REQUIRED);
    await submit(async () => {
      try {
        const { message } = await authApi.verifyEmailWithPassword(token, password);
        onDone(verifiedOutcome(message));
      } catch (cause) {
        if (!endsTheLink(cause)) throw cause;
        onDone({ ok: false, message: verifyErrorText(cause) });
      }
    }, verifyErrorText);
  };

  return (
    <AuthLayout title="Confirm your password" subtitle={question}>
      <AuthForm onSubmit={onSubmit} error={error}>
        <PasswordField
          label="Password"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          autoFocus
        />
        <SubmitButton label="Verify Email" loading={submitting} />
      </AuthForm>
    </AuthLayout>
  );
}
