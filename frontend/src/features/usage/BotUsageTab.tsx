import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useCallback, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { botsApi, usageApi } from '../../api';
import { useApiResource } from '../../hooks/useApiResource';
import { inboxLink } from '../conversations/inboxParams';
import { UsageChart } from './UsageChart';
import { NotChargedLine } from './NotChargedLine';
import { SpendForecastLine } from './SpendForecastLine';
import { formatDollars } from './usageFormat';
import { usageLimitValue } from './usageLimit';
import { WholeDollarField } from './WholeDollarField';
import { SubmitButton } from '../../components/SubmitButton';

export interface BotUsageTabProps {
  botId: number;
  /** The "Unanswered questions" link leaves the modal for the conversations page. */
  onLeave?: () => void;
}

/**
 * The edit-bot modal's Usage tab: the bot's usage this billing period in dollars, its monthly
 * budget (whole dollars, digits only, empty saves 0 = no limit), where the period's spend is
 * heading against it, and the 10-day chart.
 */
export function BotUsageTab({ botId, onLeave }: BotUsageTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const loadUsage = useCallback(() => usageApi.getBotUsage(botId), [botId]);
  const loadHistory = useCallback(() => usageApi.getBotUsageHistory(botId), [botId]);
  const usageResource = useApiResource(loadUsage);
  const historyResource = useApiResource(loadHistory);
  /** What the owner typed; null = not edited, show the saved limit. */
  const [draft, setDraft] = useState<{ botId: number; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const usage = usageResource.status === 'ready' ? usageResource.data : null;
  const usageError = usageResource.status === 'error' ? 'Error fetching bot usage.' : null;
  const history = historyResource.status === 'ready' ? historyResource.data : null;
  const historyError = historyResource.status === 'error' ? 'Error fetching usage history' : null;
  const limit = draft?.botId === botId ? draft.text : usage ? String(usage.usageLimitDollars) : '';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const usageLimitDollars = usageLimitValue(limit);
    setSaving(true);
    try {
      const { bot } = await botsApi.update(botId, { usageLimitDollars });
      const saved = typeof bot?.usageLimitDollars === 'number' ? bot.usageLimitDollars : usageLimitDollars;
      setDraft(null);
      usageResource.update((current) => ({ ...current, usageLimitDollars: saved }));
      enqueueSnackbar('Usage limit updated successfully!', { variant: 'success' });
    } catch {
      enqueueSnackbar('Error updating usage limit.', { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const limitCents = (usage?.usageLimitDollars ?? 0) * 100;
  const share = usage && limitCents > 0 ? Math.min(100, (usage.usageCents / limitCents) * 100) : null;

  return (
    <Stack spacing={3}>
      <Box>
        <Typography variant="overline" color="textSecondary" component="h3">
          Current usage this month
        </Typography>
        {usageError ? (
          <Alert severity="error">{usageError}</Alert>
        ) : usage ? (
          <>
            <Typography variant="h3" component="p" data-testid="bot-usage-dollars">
              {formatDollars(usage.usageCents)}
            </Typography>
            <NotChargedLine count={usage.notChargedAnswers} />
            {/* Read again when the budget is saved: the day it is reached moves with it. */}
            <SpendForecastLine key={usage.usageLimitDollars} botId={botId} />
            {share !== null && (
              <Box sx={{ mt: 1 }}>
                <LinearProgress
                  variant="determinate"
                  value={share}
                  color={share >= 100 ? 'error' : share >= 80 ? 'warning' : 'primary'}
                  aria-label="Share of the usage limit spent"
                />
                <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
                  {formatDollars(usage.usageCents)} of {formatDollars(limitCents)} limit
                  {share >= 100 ? ': the bot is paused until the next period or a higher limit.' : ''}
                </Typography>
              </Box>
            )}
          </>
        ) : (
          <Skeleton width={120} height={48} aria-label="Loading usage" />
        )}
      </Box>

      <Box component="form" onSubmit={save} noValidate>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <WholeDollarField
            label="Usage limit (USD per month)"
            value={limit}
            onChange={(digits) => setDraft({ botId, text: digits })}
            helperText="Whole dollars. Leave empty or 0 for no limit."
            disabled={!usage}
            sx={{ maxWidth: { sm: 280 } }}
          />
          <SubmitButton label="Save limit" saving={saving} disabled={!usage} sx={{ mt: { sm: 1 } }} />
        </Stack>
      </Box>

      <Box>
        <Typography variant="overline" color="textSecondary" component="h3">
          Questions it could not answer
        </Typography>
        <Typography variant="body2" color="textSecondary">
          See what visitors asked that this bot could not answer, and write the answers it should give.{' '}
          <Link component={RouterLink} to={inboxLink({ view: 'questions', botId })} onClick={onLeave}>
            Unanswered questions
          </Link>
        </Typography>
      </Box>

      <Box>
        <Typography variant="overline" color="textSecondary" component="h3">
          Last 10 days
        </Typography>
        <UsageChart
          history={history}
          loading={historyResource.status === 'loading'}
          error={historyError}
          title="Bot usage over the last 10 days"
        />
      </Box>
    </Stack>
  );
}
