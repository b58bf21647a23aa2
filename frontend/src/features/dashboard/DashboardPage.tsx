import { SimplePage } from '../../layout/SimplePage';

/** /dashboard (dashboard issue). Placeholder until that issue lands: renders its heading only. */
export function DashboardPage() {
  return <SimplePage title="Dashboard" />;
}
