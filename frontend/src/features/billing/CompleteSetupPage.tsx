import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { billingApi, userApi } from '../../api';
import { SimplePage } from '../../layout/SimplePage';
import { AUTH_ERROR_TOAST, errorMessage, externalNavigation, isAuthError } from './billingFlow';
import { SetupStatus } from './SetupStatus';

/**
 * /complete-setup, 'Almost There' (brief section 4): customer and subscription -> /dashboard;
 * customer only -> /setup-success; none -> create the customer and go to the payment page.
 * A failed payment setup shows the server's error message.
 */
export function CompleteSetupPage() {
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  const run = useCallback(async () => {
    setError(null);
    try {
      const me = await userApi.me();
      if (me.stripeCustomerId && me.subscriptionItemId) {
        void navigate('/dashboard', { replace: true });
        return;
      }
      if (me.stripeCustomerId) {
        void navigate('/setup-success', { replace: true });
        return;
      }
      const { url } = await billingApi.createStripeCustomer();
      externalNavigation.go(url);
    } catch (cause) {
      if (isAuthError(cause)) {
        enqueueSnackbar(AUTH_ERROR_TOAST, { variant: 'error' });
        void navigate('/login', { replace: true });
        return;
      }
      setError(errorMessage(cause, 'We could not open the payment page. Please try again.'));
    }
  }, [enqueueSnackbar, navigate]);

  useEffect(() => {
    // Once per visit (React's development double effects must not open two payment pages).
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);

  return (
    <SimplePage title="Almost There">
      <SetupStatus
        message="Taking you to the secure payment page to add your card…"
        error={error}
        onRetry={() => void run()}
      />
    </SimplePage>
  );
}
