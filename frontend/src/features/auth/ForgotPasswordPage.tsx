import { SimplePage } from '../../layout/SimplePage';

/** /forgot-password (auth issue). Placeholder until that issue lands: renders its heading only. */
export function ForgotPasswordPage() {
  return <SimplePage title="Forgot Password" />;
}
