import { SimplePage } from '../../layout/SimplePage';

/** /terms-of-service */
export function TermsOfServicePage() {
  return <SimplePage title="Terms of Service" />;
}
