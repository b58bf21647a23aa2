import { SimplePage } from '../../layout/SimplePage';

/** /complete-setup (billing issue). Placeholder until that issue lands: renders its heading only. */
export function CompleteSetupPage() {
  return <SimplePage title="Almost There" />;
}
