import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import { useParams } from 'react-router-dom';
import { NotFoundPage } from '../../layout/NotFoundPage';
import { usePageTitle } from '../../layout/usePageTitle';
import { RetryAlert } from '../../components/RetryAlert';
import { DASHBOARD_SECTIONS, DashboardShell, SIDEBAR_WIDTH, type DashboardSection } from './DashboardShell';
import { useDashboardGate } from './useDashboardGate';

/**
 * /dashboard (the bots), /dashboard/conversations (the inbox) and /dashboard/leads: the owner's workspace, behind
 * the dashboard gate (docs/product.md#dashboard-gate).
 */
export function DashboardPage() {
  const { section: segment } = useParams();
  const section = segment === undefined ? 'bots' : DASHBOARD_SECTIONS.get(segment);
  if (!section) return <NotFoundPage />;
  return <GatedDashboard section={section} />;
}

function GatedDashboard({ section }: { section: DashboardSection }) {
  usePageTitle(section === 'conversations' ? 'Conversations' : section === 'leads' ? 'Leads' : 'Dashboard');
  const gate = useDashboardGate();
  if (gate.status === 'ready') return <DashboardShell user={gate.user} section={section} />;
  if (gate.status === 'error') {
    return (
      <Container maxWidth="sm" sx={{ py: 8 }}>
        <RetryAlert onRetry={gate.retry}>Error fetching user info.</RetryAlert>
      </Container>
    );
  }
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }} aria-busy="true" aria-label="Loading your dashboard">
      <Box
        sx={{ width: SIDEBAR_WIDTH, display: { xs: 'none', md: 'block' }, borderRight: 1, borderColor: 'divider' }}
      />
      <Box sx={{ flex: 1, p: { xs: 2, md: 4 } }}>
        <Skeleton width={220} height={48} />
        <Skeleton variant="rounded" height={168} sx={{ mt: 3, maxWidth: 260, borderRadius: 3 }} />
      </Box>
    </Box>
  );
}
