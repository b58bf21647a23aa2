import type { AnalyticsGroupBy, AnalyticsResponse } from '@botsmith/contract';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { analyticsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import { serverMessage } from '../../api/serverMessage';
import { RetryAlert } from '../../components/RetryAlert';
import { useApiResource } from '../../hooks/useApiResource';
import { saveFile } from '../../lib/saveFile';
import { SpendForecastLine } from '../usage/SpendForecastLine';
import { formatDollars } from '../usage/usageFormat';
import { HoursHeatmap } from './HoursHeatmap';
import { SourcesCard } from './SourcesCard';
import { TopicsCard } from './TopicsCard';
import { useOwnerTimeZone } from './useOwnerTimeZone';
import {
  centsDelta,
  countDelta,
  csvFileName,
  formatCents,
  formatRate,
  presetRange,
  previousRange,
  RANGE_PRESETS,
  rangeLength,
  rangeProblem,
  rateDelta,
  seriesCsv,
  type DayRange,
  type Delta,
  type RangeChoice,
} from './insightsFormat';

const OutcomeChart = lazy(() => import('./OutcomeChart').then((m) => ({ default: m.OutcomeChart })));

/** Where Insights lives; `?botId=`, `?range=7|30|90|custom` (with `from`, `to`) and `?groupBy=week` narrow it. */
export const INSIGHTS_PATH = '/dashboard/insights';

const CHART_HEIGHT = 280;
const DEFAULT_RANGE: RangeChoice = '30';

export interface InsightsSectionProps {
  /** The owner's bots, for the bot picker; null while loading. */
  bots: BotResponse[] | null;
}

interface Loaded {
  current: AnalyticsResponse;
  previous: AnalyticsResponse;
}

function botIdOf(search: URLSearchParams): string | null {
  const text = search.get('botId');
  return text && /^[1-9]\d{0,9}$/.test(text) ? text : null;
}

function rangeChoiceOf(search: URLSearchParams): RangeChoice {
  const text = search.get('range');
  return text === 'custom' || (RANGE_PRESETS as readonly string[]).includes(text ?? '')
    ? (text as RangeChoice)
    : DEFAULT_RANGE;
}

interface InsightsKey {
  botId: string | null;
  from: string;
  to: string;
  groupBy: AnalyticsGroupBy;
  timeZone: string;
}

/** The period's figures and the same-length period's before it, in one read; null loads nothing. */
function useInsights(key: InsightsKey | null) {
  const { botId = null, from = '', to = '', groupBy = 'day', timeZone = '' } = key ?? {};
  const wanted = key !== null;
  const load = useCallback(
    async (signal: AbortSignal): Promise<Loaded> => {
      const query = { botId: botId ?? undefined, groupBy, timeZone };
      const [current, previous] = await Promise.all([
        analyticsApi.get({ ...query, from, to }, signal),
        analyticsApi.get({ ...query, ...previousRange({ from, to }) }, signal),
      ]);
      return { current, previous };
    },
    [botId, from, to, groupBy, timeZone],
  );
  return useApiResource(wanted ? load : null);
}

/**
 * What the owner's bots came to (docs/product.md#analytics): the headline figures against the
 * period before, conversations by outcome per day or week, the topics asked (each a link to the
 * inbox searching for it), the sources cited most and never, the busiest hours and the series as
 * CSV, for one bot or all of them, over a chosen period counted in the owner's time zone (Settings;
 * the browser's until one is chosen).
 */
export function InsightsSection({ bots }: InsightsSectionProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [today] = useState(() => new Date());
  const timeZone = useOwnerTimeZone();
  const botId = botIdOf(searchParams);
  const choice = rangeChoiceOf(searchParams);
  const groupBy: AnalyticsGroupBy = searchParams.get('groupBy') === 'week' ? 'week' : 'day';
  const preset = presetRange(Number(choice === 'custom' ? DEFAULT_RANGE : choice), today);
  const from = choice === 'custom' ? (searchParams.get('from') ?? preset.from) : preset.from;
  const to = choice === 'custom' ? (searchParams.get('to') ?? preset.to) : preset.to;
  const range: DayRange = { from, to };
  const problem = choice === 'custom' ? rangeProblem(range) : null;

  const change = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setSearchParams(next, { replace: true });
  };

  const insights = useInsights(problem || timeZone === null ? null : { botId, from, to, groupBy, timeZone });

  // A bot id from a link that is not (or no longer) the owner's shows as "All bots" rather than blank.
  const known = bots?.some((bot) => String(bot.id) === botId) ?? false;
  const ready = insights.status === 'ready' && !problem ? insights.data : null;
  const empty = ready !== null && ready.current.totals.conversations === 0;
  const days = rangeLength(range) ?? 0;

  const downloadCsv = () => {
    if (!ready) return;
    saveFile(new Blob([seriesCsv(ready.current)], { type: 'text/csv;charset=utf-8' }), csvFileName(ready.current));
  };

  return (
    <Box>
      <Typography variant="h3" component="h1" sx={{ mb: 1 }}>
        Insights
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 3 }}>
        What your bots' conversations came to, and what each resolved one cost.
        {timeZone && ` Days and hours are counted in your time zone (${timeZone}), which you can change in Settings.`}
      </Typography>

      <Stack direction={{ xs: 'column', md: 'row' }} sx={{ gap: 1.5, mb: 3, alignItems: { md: 'flex-start' } }}>
        <TextField
          select
          size="small"
          label="Bot"
          value={botId !== null && known ? botId : ''}
          onChange={(event) => change({ botId: event.target.value || null })}
          sx={{ width: { xs: '100%', md: 200 } }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          disabled={!bots}
        >
          <MenuItem value="">All bots</MenuItem>
          {bots?.map((bot) => (
            <MenuItem key={bot.id} value={String(bot.id)}>
              {bot.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Period"
          value={choice}
          onChange={(event) => {
            const next = event.target.value as RangeChoice;
            change(
              next === 'custom'
                ? { range: next, from: range.from, to: range.to }
                : { range: next === DEFAULT_RANGE ? null : next, from: null, to: null },
            );
          }}
          sx={{ width: { xs: '100%', md: 180 } }}
        >
          {RANGE_PRESETS.map((days) => (
            <MenuItem key={days} value={days}>
              Last {days} days
            </MenuItem>
          ))}
          <MenuItem value="custom">Custom dates</MenuItem>
        </TextField>
        {choice === 'custom' && (
          <Stack direction="row" sx={{ gap: 1.5 }}>
            <TextField
              type="date"
              size="small"
              label="From"
              value={range.from}
              onChange={(event) => change({ from: event.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: range.to } }}
              sx={{ flex: 1, minWidth: 0 }}
            />
            <TextField
              type="date"
              size="small"
              label="To"
              value={range.to}
              onChange={(event) => change({ to: event.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: range.from } }}
              sx={{ flex: 1, minWidth: 0 }}
            />
          </Stack>
        )}
        <ToggleButtonGroup
          exclusive
          size="small"
          value={groupBy}
          onChange={(_event, value: AnalyticsGroupBy | null) => {
            if (value) change({ groupBy: value === 'week' ? 'week' : null });
          }}
          aria-label="Group the chart by"
        >
          <ToggleButton value="day">By day</ToggleButton>
          <ToggleButton value="week">By week</ToggleButton>
        </ToggleButtonGroup>
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={downloadCsv}
          disabled={!ready || empty}
        >
          Download CSV
        </Button>
      </Stack>

      <Box sx={{ mb: 2 }}>
        <SpendForecastLine botId={botId !== null && known ? Number(botId) : null} />
      </Box>
      {problem && (
        <Typography color="error" role="alert" sx={{ mb: 2 }}>
          {problem}
        </Typography>
      )}
      {!problem && insights.status === 'loading' && <InsightsSkeleton />}
      {!problem && insights.status === 'error' && (
        <RetryAlert onRetry={insights.reload}>{serverMessage(insights.error) ?? 'Error fetching insights.'}</RetryAlert>
      )}
      {empty && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography variant="h6" component="p">
            No conversations in this period yet
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {botId !== null ? 'Try a longer period or all bots' : 'Try a longer period'}; once visitors chat with your
            bots, their outcomes show here.
          </Typography>
        </Paper>
      )}
      {ready && !empty && <InsightsBody loaded={ready} days={days} bots={bots} />}
    </Box>
  );
}

function InsightsBody({ loaded, days, bots }: { loaded: Loaded; days: number; bots: BotResponse[] | null }) {
  const { current, previous } = loaded;
  const totals = current.totals;
  const before = previous.totals;
  /** No comparison with a period that had no conversations. */
  const compare = before.conversations > 0;
  const decided = totals.conversations - totals.undecided;
  const versus = `vs previous ${days === 1 ? 'day' : `${days} days`}`;
  return (
    <Stack spacing={3}>
      <Box
        component="ul"
        aria-label="Headline figures"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        <FigureCard
          label="Resolution rate"
          value={formatRate(totals.outcomes.resolved.rate)}
          detail={`of ${decided} decided ${decided === 1 ? 'conversation' : 'conversations'}`}
          delta={compare ? rateDelta(totals.outcomes.resolved.rate, before.outcomes.resolved.rate, 'up') : null}
          versus={versus}
        />
        <FigureCard
          label="Cost per resolved conversation"
          value={formatCents(totals.costPerResolvedCents)}
          detail={`${formatDollars(totals.spendCents)} spent`}
          delta={compare ? centsDelta(totals.costPerResolvedCents, before.costPerResolvedCents, 'down') : null}
          versus={versus}
        />
        <FigureCard
          label="Handoffs"
          value={String(totals.outcomes.handed_off.count)}
          detail={`${formatRate(totals.outcomes.handed_off.rate)} of decided`}
          delta={compare ? countDelta(totals.outcomes.handed_off.count, before.outcomes.handed_off.count, null) : null}
          versus={versus}
        />
        <FigureCard
          label="Unanswered"
          value={String(totals.outcomes.unanswered.count)}
          detail={`${formatRate(totals.outcomes.unanswered.rate)} of decided`}
          delta={
            compare ? countDelta(totals.outcomes.unanswered.count, before.outcomes.unanswered.count, 'down') : null
          }
          versus={versus}
        />
      </Box>
      <Typography variant="body2" color="textSecondary">
        {totals.conversations} {totals.conversations === 1 ? 'conversation' : 'conversations'} · {totals.messages}{' '}
        messages · {totals.visitors} {totals.visitors === 1 ? 'visitor' : 'visitors'} · {totals.leads}{' '}
        {totals.leads === 1 ? 'lead' : 'leads'}
        {totals.undecided > 0 && ` · ${totals.undecided} not decided yet (quiet for less than 30 minutes)`}
      </Typography>

      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Conversations by outcome, per {current.groupBy}
        </Typography>
        <Box role="figure" aria-label={`Conversations by outcome per ${current.groupBy}`}>
          <Suspense fallback={<Skeleton variant="rounded" height={CHART_HEIGHT} aria-label="Loading chart" />}>
            <OutcomeChart response={current} height={CHART_HEIGHT} />
          </Suspense>
        </Box>
      </Paper>

      <Box
        sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}
      >
        <TopicsCard topics={current.topics} topicConversations={current.topicConversations} botId={current.botId} />
        <SourcesCard sources={current.sources} botId={current.botId} bots={bots} />
      </Box>

      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Busiest hours
        </Typography>
        <HoursHeatmap hours={current.hours} />
      </Paper>
    </Stack>
  );
}

const TONE_COLOR: Record<Delta['tone'], string> = {
  good: 'success.dark',
  bad: 'error.main',
  neutral: 'text.secondary',
};

interface FigureCardProps {
  label: string;
  value: string;
  detail: string;
  delta: Delta | null;
  versus: string;
}

function FigureCard({ label, value, detail, delta, versus }: FigureCardProps) {
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2, minWidth: 0 }} aria-label={label}>
      <Typography variant="body2" color="textSecondary" sx={{ minHeight: { xs: 40, md: 'auto' } }}>
        {label}
      </Typography>
      <Typography variant="h4" component="p" sx={{ fontWeight: 600, my: 0.5 }}>
        {value}
      </Typography>
      {delta && (
        <Typography variant="body2" color="textSecondary">
          <Box component="span" data-tone={delta.tone} sx={{ color: TONE_COLOR[delta.tone], fontWeight: 600 }}>
            {delta.text}
          </Box>{' '}
          {versus}
        </Typography>
      )}
      <Typography variant="caption" color="textSecondary">
        {detail}
      </Typography>
    </Paper>
  );
}

function InsightsSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading insights">
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
          mb: 3,
        }}
      >
        {[0, 1, 2, 3].map((key) => (
          <Skeleton key={key} variant="rounded" height={118} />
        ))}
      </Box>
      <Skeleton variant="rounded" height={CHART_HEIGHT + 60} sx={{ mb: 3 }} />
      <Skeleton variant="rounded" height={220} />
    </Box>
  );
}
