import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { billingApi, userApi } from '../../api';
import { SimplePage } from '../../layout/SimplePage';
import { AUTH_ERROR_TOAST, isAuthError, SUBSCRIPTION_ERROR_TOAST, externalNavigation } from './billingFlow';
import { SetupStatus } from './SetupStatus';

/**
 * /setup-success, 'Finishing Setup' (brief section 4): with a subscription -> /dashboard; else
 * without a payment method -> a payment-method session; else create the subscription (the call
 * is idempotent) and go to /dashboard.
 */
export function SetupSuccessPage() {
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  const run = useCallback(async () => {
    setFailed(false);
    try {
      const me = await userApi.me();
      if (me.subscriptionItemId) {
        void navigate('/dashboard', { replace: true });
        return;
      }
      const { hasPaymentMethod } = await billingApi.hasPaymentMethod();
      if (!hasPaymentMethod) {
        const { url } = await billingApi.createPaymentMethodSession();
        externalNavigation.go(url);
        return;
      }
      await billingApi.createStripeSubscription();
      void navigate('/dashboard', { replace: true });
    } catch (cause) {
      if (isAuthError(cause)) {
        enqueueSnackbar(AUTH_ERROR_TOAST, { variant: 'error' });
        void navigate('/login', { replace: true });
        return;
      }
      enqueueSnackbar(SUBSCRIPTION_ERROR_TOAST, { variant: 'error' });
      setFailed(true);
    }
  }, [enqueueSnackbar, navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);

  return (
    <SimplePage title="Finishing Setup">
      <SetupStatus
        message="Creating your subscription..."
        error={failed ? SUBSCRIPTION_ERROR_TOAST : null}
        onRetry={() => void run()}
      />
    </SimplePage>
  );
}
