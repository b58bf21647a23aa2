import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import type { UsageHistoryResponse } from '../../api/types';
import { formatTotals, hasAnyUsage, toChartData } from './usageFormat';

const UsageLineChart = lazy(() => import('./UsageLineChart').then((m) => ({ default: m.UsageLineChart })));

/** The counts chart; the cost chart below it is 70% as high. Together they fit a phone's screen. */
export const USAGE_CHART_HEIGHT = 220;
const TOTAL_HEIGHT = 420;

export interface UsageChartProps {
  /** null while loading or after an error. */
  history: UsageHistoryResponse | null;
  loading: boolean;
  /** Shown in place of the chart when the history could not be loaded. */
  error?: string | null;
  /** Accessible name of the chart. */
  title?: string;
}

/**
 * The last 10 days (UTC) of usage (docs/product.md#usage-figures): answers beside visitor messages
 * on a count axis, the cost on a dollar axis of its own, and the ten days' totals (tokens included)
 * in one line.
 */
export function UsageChart({ history, loading, error, title = 'Usage over the last 10 days' }: UsageChartProps) {
  const data = useMemo(() => (history ? toChartData(history) : null), [history]);

  if (loading) {
    return <Skeleton variant="rounded" height={TOTAL_HEIGHT} aria-label="Loading usage chart" />;
  }
  if (error || !data || !history) {
    return (
      <Box
        sx={{
          height: TOTAL_HEIGHT,
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
      <Suspense fallback={<Skeleton variant="rounded" height={TOTAL_HEIGHT} aria-label="Loading usage chart" />}>
        <UsageLineChart data={data} height={USAGE_CHART_HEIGHT} />
      </Suspense>
      {hasAnyUsage(history) ? (
        <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center', mt: 1 }}>
          Last 10 days: {formatTotals(data.totals)}. You pay for answers only.
        </Typography>
      ) : (
        <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center', mt: 1 }}>
          No messages in the last 10 days yet.
        </Typography>
      )}
    </Box>
  );
}
