import { QUESTION_PERIODS, type QuestionPeriod } from '@botsmith/contract';
import CheckRounded from '@mui/icons-material/CheckRounded';
import EditNoteRounded from '@mui/icons-material/EditNoteRounded';
import HelpOutlineRounded from '@mui/icons-material/HelpOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { conversationsApi } from '../../api';
import { useApiResource } from '../../hooks/useApiResource';
import { RetryAlert } from '../../components/RetryAlert';
import type { FixTarget } from './FixAnswerDialog';
import { formatMomentLong, formatWhen, inboxLink } from './inboxParams';

const PERIOD_LABEL: Record<QuestionPeriod, string> = { '7d': '7 days', '30d': '30 days', '90d': '90 days' };

export interface UnansweredQuestionsProps {
  botId: number;
  period: QuestionPeriod;
  onPeriod: (period: QuestionPeriod) => void;
  onFix: (target: FixTarget) => void;
  /** Questions the owner corrected since the report was read: shown Fixed at once. */
  fixedNow?: readonly string[];
}

/** A bot's report: the questions it could not answer, similar ones grouped, most asked first. */
export function UnansweredQuestions({ botId, period, onPeriod, onFix, fixedNow = [] }: UnansweredQuestionsProps) {
  const load = useCallback(() => conversationsApi.unansweredQuestions(botId, period), [botId, period]);
  const report = useApiResource(load);
  const [hideFixed, setHideFixed] = useState(false);
  // The server marks a question fixed by the corrections it holds; one saved since the report was
  // read is marked here too, in place, so the owner sees it at once (the next read agrees).
  const all =
    report.status === 'ready'
      ? report.data.questions.map((question) =>
          !question.fixed && fixedNow.includes(question.text) ? { ...question, fixed: true } : question,
        )
      : [];
  const fixedCount = all.filter((question) => question.fixed).length;
  const questions = hideFixed ? all.filter((question) => !question.fixed) : all;

  return (
    <Box component="section" aria-label="Unanswered questions">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', gap: 1.5, mb: 2 }}
      >
        <Typography variant="body2" color="textSecondary">
          What visitors asked that the bot could not answer or they rated down. Fix an answer once and the bot gives it
          from then on.
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={period}
          onChange={(_, value: QuestionPeriod | null) => value && onPeriod(value)}
          aria-label="Period"
          sx={{ flexShrink: 0 }}
        >
          {QUESTION_PERIODS.map((value) => (
            <ToggleButton key={value} value={value} aria-label={`Last ${PERIOD_LABEL[value]}`}>
              {PERIOD_LABEL[value]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {fixedCount > 0 && (
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
          <Chip
            label={`Hide fixed (${fixedCount})`}
            color={hideFixed ? 'success' : 'default'}
            variant={hideFixed ? 'filled' : 'outlined'}
            onClick={() => setHideFixed((hide) => !hide)}
            aria-pressed={hideFixed}
          />
        </Stack>
      )}

      {report.status === 'loading' && (
        <Stack spacing={1.5} aria-busy="true" aria-label="Loading questions">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={72} />
          ))}
        </Stack>
      )}
      {report.status === 'error' && (
        <RetryAlert onRetry={report.reload}>Error fetching unanswered questions.</RetryAlert>
      )}
      {report.status === 'ready' && questions.length === 0 && (
        <Stack sx={{ alignItems: 'center', textAlign: 'center', py: 6, color: 'text.secondary' }} spacing={1}>
          <HelpOutlineRounded sx={{ fontSize: 40 }} />
          <Typography variant="subtitle1" component="p" color="textPrimary">
            No unanswered questions
          </Typography>
          <Typography variant="body2">
            In the last {PERIOD_LABEL[period]}, the bot answered every question it was asked.
          </Typography>
        </Stack>
      )}
      {report.status === 'ready' && questions.length > 0 && (
        <List aria-label="Questions" disablePadding sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
          {questions.map((question, index) => (
            <ListItem
              key={`${index}:${question.text}`}
              divider={index < questions.length - 1}
              aria-label={question.text}
              sx={{ display: 'block', py: 1.5 }}
            >
              <Typography variant="body1" sx={{ overflowWrap: 'anywhere' }}>
                {question.text}
                {question.fixed && (
                  <Chip
                    size="small"
                    color="success"
                    icon={<CheckRounded />}
                    label="Fixed"
                    title="A correction answers this question now."
                    sx={{ ml: 1, height: 22, verticalAlign: 'middle' }}
                  />
                )}
              </Typography>
              <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1, mt: 0.5 }}>
                <Typography variant="body2" color="textSecondary">
                  {question.count === 1 ? 'Asked once' : `Asked ${question.count} times`} · last{' '}
                  <time dateTime={question.lastAskedAt} title={formatMomentLong(question.lastAskedAt)}>
                    {formatWhen(question.lastAskedAt)}
                  </time>
                </Typography>
                <Box sx={{ flex: 1 }} />
                <Button
                  size="small"
                  component={RouterLink}
                  to={inboxLink({
                    botId,
                    filter: 'unanswered',
                    q: question.text,
                    conversationId: question.conversationIds[0] ?? null,
                  })}
                >
                  {question.conversationIds.length === 1
                    ? 'See the conversation'
                    : `See ${question.conversationIds.length} conversations`}
                </Button>
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<EditNoteRounded />}
                  onClick={() => onFix({ botId, question: question.text })}
                >
                  Fix this answer
                </Button>
              </Stack>
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
