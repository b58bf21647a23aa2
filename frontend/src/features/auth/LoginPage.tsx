import { SimplePage } from '../../layout/SimplePage';

/** /login and /signin (auth issue). Placeholder until that issue lands: renders its heading only. */
export function LoginPage() {
  return <SimplePage title="Log In" />;
}
