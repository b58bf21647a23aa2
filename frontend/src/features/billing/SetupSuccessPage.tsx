import { SimplePage } from '../../layout/SimplePage';

/** /setup-success (billing issue). Placeholder until that issue lands: renders its heading only. */
export function SetupSuccessPage() {
  return <SimplePage title="Finishing Setup" />;
}
