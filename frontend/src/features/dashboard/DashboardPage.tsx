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
 * /dashboard (the bots), /dashboard/conversations (the inbox), /dashboard/leads and /dashboard/insights: the owner's
 * workspace, behind
 * the dashboard gate (docs/product.md#dashboard-gate).
 */
export function DashboardPage() {
  const { section: segment } = useParams();
  const section = segment === undefined ? 'bots' : DASHBOARD_SECTIONS.get(segment);
  if (!section) return <NotFoundPage />;
  return <GatedDashboard section={section} />;
}

const SECTION_TITLES: Record<DashboardSection, string> = {
  bots: 'Dashboard',
  conversations: 'Conversations',
  leads: 'Leads',
  insights: 'Insights',
};

function GatedDashboard({ section }: { section: DashboardSection }) {
  usePageTitle(SECTION_TITLES[section]);
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
        <SectionSkeleton section={section} />
      </Box>
    </Box>
  );
}

/**
 * Each page loads in its own shape (issue 27): bot cards, the inbox's list and transcript, the leads
 * table, the insights' figures and chart.
 */
function SectionSkeleton({ section }: { section: DashboardSection }) {
  if (section === 'conversations') {
    return (
      <Box data-testid="skeleton-conversations" sx={{ display: 'flex', gap: 2, mt: 3 }}>
        <Box sx={{ width: { xs: '100%', md: 340 }, flexShrink: 0 }}>
          {[0, 1, 2, 3, 4].map((key) => (
            <Box key={key} sx={{ py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
              <Skeleton width="40%" height={20} />
              <Skeleton width="90%" height={22} />
            </Box>
          ))}
        </Box>
        <Skeleton
          variant="rounded"
          height={420}
          sx={{ flex: 1, display: { xs: 'none', md: 'block' }, borderRadius: 3 }}
        />
      </Box>
    );
  }
  if (section === 'leads') {
    return (
      <Box data-testid="skeleton-leads" sx={{ mt: 3 }}>
        <Skeleton variant="rounded" height={40} sx={{ mb: 1, borderRadius: 1 }} />
        {[0, 1, 2, 3, 4, 5].map((key) => (
          <Skeleton key={key} height={44} />
        ))}
      </Box>
    );
  }
  if (section === 'insights') {
    return (
      <Box data-testid="skeleton-insights" sx={{ mt: 3 }}>
        <Skeleton variant="rounded" height={40} sx={{ mb: 3, borderRadius: 1, maxWidth: 640 }} />
        <Box
          sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, mb: 3 }}
        >
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} variant="rounded" height={118} />
          ))}
        </Box>
        <Skeleton variant="rounded" height={340} />
      </Box>
    );
  }
  return (
    <Box
      data-testid="skeleton-bots"
      sx={{ mt: 3, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))' }}
    >
      {[0, 1, 2].map((key) => (
        <Skeleton key={key} variant="rounded" height={168} sx={{ borderRadius: 3 }} />
      ))}
    </Box>
  );
}
