import { billingApi, userApi } from '../../api';
import { SimplePage } from '../../layout/SimplePage';
import Typography from '@mui/material/Typography';
import { errorMessage, externalNavigation, WHY_A_CARD } from './billingFlow';
import { SetupStatus } from './SetupStatus';
import { useSetupStep, type SetupStep } from './useSetupStep';

const openPaymentPage: SetupStep = async (goTo) => {
  const me = await userApi.me();
  if (me.stripeCustomerId && me.subscriptionItemId) {
    goTo('/dashboard');
    return;
  }
  if (me.stripeCustomerId) {
    goTo('/setup-success');
    return;
  }
  const { url } = await billingApi.createStripeCustomer();
  externalNavigation.go(url);
};

const failureMessage = (cause: unknown) => errorMessage(cause, 'We could not open the payment page. Please try again.');

/**
 * /complete-setup, 'Almost There' (docs/product.md#setup-flow): customer and subscription -> /dashboard;
 * customer only -> /setup-success; none -> create the customer and go to the payment page.
 * A failed payment setup shows the server's error message.
 */
export function CompleteSetupPage() {
  const { error, retry } = useSetupStep(openPaymentPage, failureMessage);
  return (
    <SimplePage title="Almost There">
      <SetupStatus message="Taking you to the secure payment page to add your card…" error={error} onRetry={retry} />
      <Typography variant="body2" color="textSecondary" sx={{ mt: 2 }}>
        {WHY_A_CARD}
      </Typography>
    </SimplePage>
  );
}
