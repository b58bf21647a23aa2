import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { billingApi, usageApi } from '../../api';
import { useApiResource } from '../../hooks/useApiResource';
import { NotChargedLine } from '../usage/NotChargedLine';
import { SpendForecastLine } from '../usage/SpendForecastLine';
import { UsageChart } from '../usage/UsageChart';
import { formatDollars, formatUtcDay, usagePeriod } from '../usage/usageFormat';
import { SpendAlertField } from './SpendAlertField';

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

const loadUsage = () => usageApi.getUserUsage();
const loadHistory = () => usageApi.getUserUsageHistory();
const loadSubscription = () => billingApi.getSubscription();

/** Toasts `message` each time `failed` turns true. */
function useFailureToast(failed: boolean, message: string) {
  const { enqueueSnackbar } = useSnackbar();
  useEffect(() => {
    if (failed) enqueueSnackbar(message, { variant: 'error' });
  }, [failed, message, enqueueSnackbar]);
}

/**
 * Settings > Usage: this period's usage in dollars, the free credits left, where the period's spend
 * is heading, the 10-day chart, the spend alert.
 */
export function UsageTab() {
  const usageResource = useApiResource(loadUsage);
  const historyResource = useApiResource(loadHistory);
  const subscriptionResource = useApiResource(loadSubscription);
  useFailureToast(usageResource.status === 'error', 'Error fetching usage info.');
  useFailureToast(historyResource.status === 'error', 'Error fetching usage history.');
  useFailureToast(subscriptionResource.status === 'error', 'Error fetching subscription details.');

  const usage = usageResource.status === 'ready' ? usageResource.data : null;
  const usageFailed = usageResource.status === 'error';
  const history = historyResource.status === 'ready' ? historyResource.data : null;
  const historyLoading = historyResource.status === 'loading';
  const historyError = historyResource.status === 'error' ? 'Error fetching usage history.' : null;
  const subscription = subscriptionResource.status === 'ready' ? subscriptionResource.data : null;
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
      <NotChargedLine count={usage?.notChargedAnswers} />
      <SpendForecastLine botId={null} />
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
      <Box>
        <Typography variant="overline" color="textSecondary" component="h3" sx={{ mb: 1 }}>
          Spend alert
        </Typography>
        <SpendAlertField />
      </Box>
      <Alert severity="info" variant="outlined">
        Monthly usage resets on the 3rd of each month (UTC). Free credits are used first; usage after that is billed to
        your card. The payment provider's processing delay may offset your bill slightly.
      </Alert>
    </Stack>
  );
}
