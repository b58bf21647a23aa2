import { SimplePage } from '../../layout/SimplePage';

/** /billing-issue (billing issue). Placeholder until that issue lands: renders its heading only. */
export function BillingIssuePage() {
  return <SimplePage title="Fix Your Billing Info" />;
}
