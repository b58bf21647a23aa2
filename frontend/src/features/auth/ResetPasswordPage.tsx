import { SimplePage } from '../../layout/SimplePage';

/** /reset-password/:token (auth issue). Placeholder until that issue lands: renders its heading only. */
export function ResetPasswordPage() {
  return <SimplePage title="Reset Password" />;
}
