import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { billingApi, userApi } from '../../api';
import { SimplePage } from '../../layout/SimplePage';
import {
  AUTH_ERROR_TOAST,
  BILLING_POLL_INTERVAL_MS,
  errorMessage,
  externalNavigation,
  isAuthError,
} from './billingFlow';

/**
 * /billing-issue (docs/product.md#billing-setup-screens): the last payment failed. 'Update Payment Method' opens a
 * payment-method session (the new card retries the unpaid invoice); meanwhile the page asks every
 * 5 s whether the account is paid again and then goes to /dashboard.
 */
export function BillingIssuePage() {
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    const check = async () => {
      try {
        const me = await userApi.me();
        if (active && me.hasPaid === true) void navigate('/dashboard', { replace: true });
      } catch (cause) {
        if (active && isAuthError(cause)) {
          enqueueSnackbar(AUTH_ERROR_TOAST, { variant: 'error' });
          void navigate('/login', { replace: true });
        }
        // Other failures (network): the next poll tries again.
      }
    };
    void check();
    const timer = window.setInterval(() => void check(), BILLING_POLL_INTERVAL_MS);
    return () => {
      active = false;
      window.clearInterval(timer);
    };
  }, [enqueueSnackbar, navigate]);

  const updatePaymentMethod = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await billingApi.createPaymentMethodSession();
      externalNavigation.go(url);
    } catch (cause) {
      setBusy(false);
      if (isAuthError(cause)) {
        enqueueSnackbar(AUTH_ERROR_TOAST, { variant: 'error' });
        void navigate('/login', { replace: true });
        return;
      }
      setError(errorMessage(cause, 'We could not open the payment page. Please try again.'));
    }
  };

  return (
    <SimplePage title="Fix Your Billing Info">
      <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="body1">Your last payment failed. Please update your card to restore access.</Typography>
        {error && (
          <Alert severity="error" sx={{ width: '100%' }}>
            {error}
          </Alert>
        )}
        <Button variant="contained" size="large" disabled={busy} onClick={() => void updatePaymentMethod()}>
          {busy ? 'Redirecting…' : 'Update Payment Method'}
        </Button>
      </Stack>
    </SimplePage>
  );
}
