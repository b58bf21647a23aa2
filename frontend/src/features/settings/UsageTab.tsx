import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { billingApi, usageApi } from '../../api';
import type { Subscription, UsageHistory, UserUsage } from '../../api/types';
import { UsageChart } from '../usage/UsageChart';
import { formatDollars, formatUtcDay, usagePeriod } from '../usage/usageFormat';

function Figure({ label, value, testId }: { label: string; value: string | null; testId: string }) {
  return (
    <Box sx={{ flex: 1, p: 2, border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Typography variant="overline" color="textSecondary" component="h3">
        {label}
      </Typography>
      {value === null ? (
        <Skeleton width={100} height={40} aria-label={`Loading ${label.toLowerCase()}`} />
      ) : (
        <Typography variant="h4" component="p" data-testid={testId}>
          {value}
        </Typography>
      )}
    </Box>
  );
}

/** Settings > Usage: this period's usage in dollars, the free credits left, the 10-day chart. */
export function UsageTab() {
  const { enqueueSnackbar } = useSnackbar();
  const [usage, setUsage] = useState<UserUsage | null>(null);
  const [usageFailed, setUsageFailed] = useState(false);
  const [history, setHistory] = useState<UsageHistory | null>(null);
  const [historyLoading, setHistoryLoading] = useState(true);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [subscription, setSubscription] = useState<Subscription | null>(null);

  useEffect(() => {
    let active = true;
    usageApi.getUserUsage().then(
      (result) => {
        if (active) setUsage(result);
      },
      () => {
        if (!active) return;
        setUsageFailed(true);
        enqueueSnackbar('Error fetching usage info.', { variant: 'error' });
      },
    );
    usageApi
      .getUserUsageHistory()
      .then(
        (result) => {
          if (active) setHistory(result);
        },
        () => {
          if (!active) return;
          setHistoryError('Error fetching usage history.');
          enqueueSnackbar('Error fetching usage history.', { variant: 'error' });
        },
      )
      .finally(() => {
        if (active) setHistoryLoading(false);
      });
    billingApi.getSubscription().then(
      (result) => {
        if (active) setSubscription(result);
      },
      () => {
        if (active) enqueueSnackbar('Error fetching subscription details.', { variant: 'error' });
      },
    );
    return () => {
      active = false;
    };
  }, [enqueueSnackbar]);

  const [period] = useState(() => usagePeriod(new Date()));

  return (
    <Stack spacing={3}>
      {usageFailed ? (
        <Alert severity="error">Error fetching usage info.</Alert>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Figure
            label="Usage this month"
            value={usage ? formatDollars(usage.monthlyUsageCents ?? usage.usageCents) : null}
            testId="settings-usage-dollars"
          />
          <Figure
            label="Free credits left"
            value={usage ? formatDollars(usage.creditsCents) : null}
            testId="settings-credits-dollars"
          />
        </Stack>
      )}
      <Typography variant="body2" color="textSecondary">
        Usage since {formatUtcDay(period.start)}; resets on {formatUtcDay(period.end)} (UTC).
        {subscription && typeof subscription.status === 'string' && subscription.status
          ? ` Subscription: ${subscription.status}.`
          : ''}
      </Typography>
      <Box>
        <Typography variant="overline" color="textSecondary" component="h3">
          Last 10 days, all bots
        </Typography>
        <UsageChart history={history} loading={historyLoading} error={historyError} />
      </Box>
      <Alert severity="info" variant="outlined">
        Monthly usage resets on the 3rd of each month (UTC). Free credits are used first; usage after that is billed to
        your card. The payment provider's processing delay may offset your bill slightly.
      </Alert>
    </Stack>
  );
}
