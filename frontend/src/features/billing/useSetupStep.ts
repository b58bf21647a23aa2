import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AUTH_ERROR_TOAST, isAuthError } from './billingFlow';

/** A setup page's work; `goTo` replaces the page with another route of the app. */
export type SetupStep = (goTo: (path: string) => void) => Promise<void>;

/**
 * Runs a setup page's step once per visit (React's development double effects must not open two
 * payment pages) and again on retry. A lost session goes to /login with a toast
 * (docs/product.md#billing-setup-screens); any other failure shows `failureMessage(cause)`, also as
 * a toast when `toastFailure` is set.
 */
export function useSetupStep(
  step: SetupStep,
  failureMessage: (cause: unknown) => string,
  { toastFailure = false }: { toastFailure?: boolean } = {},
) {
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  const run = useCallback(async () => {
    setError(null);
    try {
      await step((path) => void navigate(path, { replace: true }));
    } catch (cause) {
      if (isAuthError(cause)) {
        enqueueSnackbar(AUTH_ERROR_TOAST, { variant: 'error' });
        void navigate('/login', { replace: true });
        return;
      }
      const message = failureMessage(cause);
      if (toastFailure) enqueueSnackbar(message, { variant: 'error' });
      setError(message);
    }
  }, [step, failureMessage, toastFailure, enqueueSnackbar, navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);

  return { error, retry: () => void run() };
}
