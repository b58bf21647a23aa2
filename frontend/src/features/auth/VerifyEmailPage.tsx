import TaskAlt from '@mui/icons-material/TaskAlt';
import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, authApi } from '../../api';
import type { MessageResponse } from '../../api/types';
import { AuthLayout } from './AuthLayout';
import { VERIFY_REDIRECT_MS, verifiedOutcome, verifyErrorText, type VerifyOutcome } from './authRules';
import { ConfirmPasswordStep } from './ConfirmPasswordStep';

/**
 * The link is single-use, so one page visit must spend it once, even when React's development
 * mode runs the effect twice or mounts the page twice: calls in flight are shared per token.
 */
const inFlight = new Map<string, Promise<MessageResponse>>();

function verifyOnce(token: string): Promise<MessageResponse> {
  let call = inFlight.get(token);
  if (!call) {
    call = authApi.verifyEmail(token).finally(() => inFlight.delete(token));
    inFlight.set(token, call);
  }
  return call;
}

/** The server asks for the signup's password: the link was opened in another browser than the signup's. */
function needsPassword(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'PASSWORD_CONFIRMATION_REQUIRED';
}

/**
 * /verify-email/:token: 'Verifying...', then the server's message; /dashboard after 3 s on
 * success (the link signs the owner in), /login after 3 s on error. Opened in another browser
 * than the one that signed up, the server asks for the password chosen at signup first (one
 * field and a button), so nobody who merely holds the link adopts someone else's password.
 */
export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  const [question, setQuestion] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    verifyOnce(token).then(
      ({ message }) => setOutcome(verifiedOutcome(message)),
      (cause: unknown) => {
        if (needsPassword(cause)) setQuestion(cause.message);
        else setOutcome({ ok: false, message: verifyErrorText(cause) });
      },
    );
  }, [token]);

  useEffect(() => {
    if (!outcome) return;
    const timer = window.setTimeout(
      () => void navigate(outcome.ok ? '/dashboard' : '/login', { replace: true }),
      VERIFY_REDIRECT_MS,
    );
    return () => window.clearTimeout(timer);
  }, [outcome, navigate]);

  if (!outcome && question !== null) {
    return <ConfirmPasswordStep token={token} question={question} onDone={setOutcome} />;
  }

  if (!outcome) {
    return (
      <AuthLayout title="Verifying...">
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status" aria-live="polite">
          <CircularProgress size={28} aria-hidden />
          <Typography color="textSecondary">Confirming your email address.</Typography>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={outcome.ok ? 'Email verified' : 'Verification failed'}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
        {outcome.ok ? (
          <TaskAlt color="success" sx={{ fontSize: 56 }} aria-hidden />
        ) : (
          <CancelOutlined color="error" sx={{ fontSize: 56 }} aria-hidden />
        )}
        <Typography variant="body1" role={outcome.ok ? 'status' : 'alert'}>
          {outcome.message}
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {outcome.ok ? 'Taking you to your dashboard…' : 'Taking you to the login page…'}
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
