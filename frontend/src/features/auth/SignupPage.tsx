import { SimplePage } from '../../layout/SimplePage';

/** /signup (auth issue). Placeholder until that issue lands: renders its heading only. */
export function SignupPage() {
  return <SimplePage title="Sign Up" />;
}
