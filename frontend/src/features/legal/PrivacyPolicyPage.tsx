import { SimplePage } from '../../layout/SimplePage';

/** /privacy-policy */
export function PrivacyPolicyPage() {
  return <SimplePage title="Privacy Policy" />;
}
