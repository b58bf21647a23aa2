import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useCallback, useState, type FormEvent } from 'react';
import { botsApi, usageApi } from '../../api';
import { UsageChart } from './UsageChart';
import { useApiResource } from './useApiResource';
import { formatDollars } from './usageFormat';
import { USAGE_LIMIT_MAX_DIGITS, usageLimitInput, usageLimitValue } from './usageLimit';

export interface BotUsageTabProps {
  botId: number;
}

/**
 * The edit-bot modal's Usage tab: the bot's usage this billing period in dollars, its monthly
 * budget (whole dollars, digits only, empty saves 0 = no limit) and the 10-day chart.
 */
export function BotUsageTab({ botId }: BotUsageTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const loadUsage = useCallback(() => usageApi.getBotUsage(botId), [botId]);
  const loadHistory = useCallback(() => usageApi.getBotUsageHistory(botId), [botId]);
  const [usageResource, setUsage] = useApiResource(loadUsage);
  const [historyResource] = useApiResource(loadHistory);
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
      if (usage) setUsage({ ...usage, usageLimitDollars: saved });
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
          <TextField
            label="Usage limit (USD per month)"
            value={limit}
            onChange={(event) => setDraft({ botId, text: usageLimitInput(event.target.value) })}
            helperText="Whole dollars. Leave empty or 0 for no limit."
            disabled={!usage}
            sx={{ maxWidth: { sm: 280 } }}
            slotProps={{
              htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: USAGE_LIMIT_MAX_DIGITS },
              input: {
                startAdornment: (
                  <Box component="span" sx={{ mr: 0.5, color: 'text.secondary' }}>
                    $
                  </Box>
                ),
              },
            }}
          />
          <Button type="submit" variant="contained" disabled={!usage || saving} sx={{ mt: { sm: 1 } }}>
            {saving ? 'Saving…' : 'Save limit'}
          </Button>
        </Stack>
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
