import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import type { UsageHistory } from '../../api/types';
import { hasAnyUsage, toChartData } from './usageFormat';

const UsageLineChart = lazy(() => import('./UsageLineChart').then((m) => ({ default: m.UsageLineChart })));

export const USAGE_CHART_HEIGHT = 300;

export interface UsageChartProps {
  /** null while loading or after an error. */
  history: UsageHistory | null;
  loading: boolean;
  /** Shown in place of the chart when the history could not be loaded. */
  error?: string | null;
  /** Accessible name of the chart. */
  title?: string;
}

/**
 * The last 10 days (UTC) of usage: Messages, Tokens and Cost on one 300 px chart. The series are
 * scaled to share an axis (messages x2, tokens and cost /100, docs/product.md#usage-figures); the tooltip says so.
 */
export function UsageChart({ history, loading, error, title = 'Usage over the last 10 days' }: UsageChartProps) {
  const data = useMemo(() => (history ? toChartData(history) : null), [history]);

  if (loading) {
    return <Skeleton variant="rounded" height={USAGE_CHART_HEIGHT} aria-label="Loading usage chart" />;
  }
  if (error || !data || !history) {
    return (
      <Box
        sx={{
          height: USAGE_CHART_HEIGHT,
          display: 'grid',
          placeItems: 'center',
          border: 1,
          borderColor: 'divider',
          borderRadius: 2,
        }}
      >
        <Typography color="error" role="alert">
          {error ?? 'No usage history.'}
        </Typography>
      </Box>
    );
  }

  return (
    <Box role="figure" aria-label={title}>
      <Suspense fallback={<Skeleton variant="rounded" height={USAGE_CHART_HEIGHT} aria-label="Loading usage chart" />}>
        <UsageLineChart data={data} height={USAGE_CHART_HEIGHT} />
      </Suspense>
      {!hasAnyUsage(history) && (
        <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center', mt: 1 }}>
          No messages in the last 10 days yet.
        </Typography>
      )}
    </Box>
  );
}
