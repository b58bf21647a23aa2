import { SimplePage } from '../../layout/SimplePage';

/** /verify-email/:token (auth issue). Placeholder until that issue lands: renders its heading only. */
export function VerifyEmailPage() {
  return <SimplePage title="Verifying..." />;
}
