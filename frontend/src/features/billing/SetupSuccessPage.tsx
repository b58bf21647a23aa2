import { billingApi, userApi } from '../../api';
import { SimplePage } from '../../layout/SimplePage';
import { SUBSCRIPTION_ERROR_TOAST, externalNavigation } from './billingFlow';
import { SetupStatus } from './SetupStatus';
import { useSetupStep, type SetupStep } from './useSetupStep';

const finishSubscription: SetupStep = async (goTo) => {
  const me = await userApi.me();
  if (me.subscriptionItemId) {
    goTo('/dashboard');
    return;
  }
  const { hasPaymentMethod } = await billingApi.hasPaymentMethod();
  if (!hasPaymentMethod) {
    const { url } = await billingApi.createPaymentMethodSession();
    externalNavigation.go(url);
    return;
  }
  await billingApi.createStripeSubscription();
  goTo('/dashboard');
};

const failureMessage = () => SUBSCRIPTION_ERROR_TOAST;

/**
 * /setup-success, 'Finishing Setup' (docs/product.md#setup-flow): with a subscription -> /dashboard; else
 * without a payment method -> a payment-method session; else create the subscription (the call
 * is idempotent) and go to /dashboard.
 */
export function SetupSuccessPage() {
  const { error, retry } = useSetupStep(finishSubscription, failureMessage, { toastFailure: true });
  return (
    <SimplePage title="Finishing Setup">
      <SetupStatus message="Creating your subscription..." error={error} onRetry={retry} />
    </SimplePage>
  );
}
