import { CONVERSATIONS_PAGE, type QuestionPeriod } from '@botsmith/contract';
import ClearRounded from '@mui/icons-material/ClearRounded';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import SearchRounded from '@mui/icons-material/SearchRounded';
import ThumbDownRounded from '@mui/icons-material/ThumbDownRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useSnackbar } from 'notistack';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { conversationsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import { MailLimitNotice } from '../../components/MailLimitNotice';
import { saveFile } from '../../lib/saveFile';
import { ConversationList } from './ConversationList';
import { FixAnswerDialog, type FixTarget } from './FixAnswerDialog';
import { inboxSearch, readInboxParams, SEARCH_DEBOUNCE_MS, toQuery, type InboxParams } from './inboxParams';
import { TranscriptPane } from './TranscriptPane';
import { UnansweredQuestions } from './UnansweredQuestions';
import { useConversationList } from './useConversationList';

export interface ConversationsSectionProps {
  /** The owner's bots, for the bot filter; null while loading. */
  bots: BotResponse[] | null;
}

/** Height of the panes on a wide screen: the window less the header, the title and the filters. */
const PANE_HEIGHT = 'max(420px, calc(100vh - 330px))';

/**
 * The conversations inbox (docs/product.md#conversations): every chat of the owner's bots with
 * search and filters, a transcript beside the list (its own screen on a phone), and per bot the
 * questions it could not answer. Its state is in the address, so links open it filtered.
 */
export function ConversationsSection({ bots }: ConversationsSectionProps) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => readInboxParams(searchParams), [searchParams]);
  const [fixing, setFixing] = useState<FixTarget | null>(null);
  // Questions corrected in this visit: marked Fixed at once, without waiting for the next load.
  const [fixedNow, setFixedNow] = useState<FixTarget[]>([]);

  const change = (patch: Partial<InboxParams>, options: { push?: boolean } = {}) =>
    setSearchParams(inboxSearch({ ...params, ...patch }), { replace: !options.push });

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', gap: 2, mb: 1 }}>
        <Typography variant="h3" component="h1">
          Conversations
        </Typography>
      </Stack>
      <MailLimitNotice kept="replies" />
      <Tabs
        value={params.view}
        onChange={(_, view: InboxParams['view']) => change({ view, conversationId: null }, { push: true })}
        aria-label="Conversations view"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
        variant="scrollable"
        allowScrollButtonsMobile
      >
        <Tab value="conversations" label="All conversations" />
        <Tab value="questions" label="Unanswered questions" />
      </Tabs>

      {params.view === 'conversations' ? (
        <Inbox params={params} bots={bots} wide={wide} change={change} onFix={setFixing} />
      ) : (
        <QuestionsView params={params} bots={bots} change={change} onFix={setFixing} fixedNow={fixedNow} />
      )}

      <FixAnswerDialog
        target={fixing}
        onClose={() => setFixing(null)}
        onSaved={(target) => setFixedNow((fixed) => [...fixed, target])}
      />
    </Box>
  );
}

type Change = (patch: Partial<InboxParams>, options?: { push?: boolean }) => void;

function BotSelect({
  params,
  bots,
  change,
  allowAll,
}: {
  params: InboxParams;
  bots: BotResponse[] | null;
  change: Change;
  allowAll: boolean;
}) {
  // A bot id from a link that is not (or no longer) the owner's shows as "All bots" rather than blank.
  const known = bots?.some((bot) => bot.id === params.botId) ?? false;
  return (
    <TextField
      select
      size="small"
      label="Bot"
      value={params.botId !== null && known ? String(params.botId) : ''}
      onChange={(event) =>
        change({ botId: event.target.value ? Number(event.target.value) : null, conversationId: null })
      }
      fullWidth={false}
      sx={{ width: { xs: '100%', sm: 220 }, flexShrink: 0 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      disabled={!bots}
    >
      <MenuItem value="" disabled={!allowAll}>
        {allowAll ? 'All bots' : 'Choose a bot'}
      </MenuItem>
      {bots?.map((bot) => (
        <MenuItem key={bot.id} value={String(bot.id)}>
          {bot.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The search box: the list follows what was typed once typing pauses. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const [pending, setPending] = useState(false);
  // The newest callback, so a re-render of the page does not restart the pause.
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });

  // The address changed under the box (a link, Back): show what it searches.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    if (!pending) setText(value);
  }

  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(() => {
      setPending(false);
      onSearchRef.current(text.trim());
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, pending]);

  return (
    <TextField
      size="small"
      type="search"
      label="Search messages"
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        setPending(true);
      }}
      fullWidth={false}
      sx={{ flex: { sm: '1 1 220px' }, minWidth: 0 }}
      slotProps={{
        htmlInput: { maxLength: CONVERSATIONS_PAGE.queryMaxChars },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchRounded fontSize="small" />
            </InputAdornment>
          ),
          endAdornment: text ? (
            <InputAdornment position="end">
              <IconButton
                size="small"
                aria-label="Clear search"
                onClick={() => {
                  setText('');
                  setPending(false);
                  onSearch('');
                }}
                edge="end"
              >
                <ClearRounded fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : undefined,
        },
      }}
    />
  );
}

function Inbox({
  params,
  bots,
  wide,
  change,
  onFix,
}: {
  params: InboxParams;
  bots: BotResponse[] | null;
  wide: boolean;
  change: Change;
  onFix: (target: FixTarget) => void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const query = useMemo(() => toQuery(params), [params]);
  const list = useConversationList(query);
  const [exporting, setExporting] = useState(false);
  const narrowed = Boolean(params.botId || params.q || params.from || params.to || params.filter !== 'all');

  const onSearch = (q: string) => change({ q, conversationId: null });

  const toggle = (filter: Exclude<InboxParams['filter'], 'all'>) =>
    change({ filter: params.filter === filter ? 'all' : filter, conversationId: null });

  const exportFile = async () => {
    setExporting(true);
    try {
      const { blob, fileName } = await conversationsApi.exportFile(query);
      saveFile(blob, fileName ?? `conversations_${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch {
      enqueueSnackbar('Error exporting conversations.', { variant: 'error' });
    } finally {
      setExporting(false);
    }
  };

  const open = (id: number) => change({ conversationId: id }, { push: !wide });
  const deleted = (id: number) => {
    list.removed(id);
    change({ conversationId: null });
  };

  const filters = (
    <Stack spacing={1.5} sx={{ mb: 2 }} role="search" aria-label="Conversation filters">
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5, flexWrap: { sm: 'wrap', lg: 'nowrap' } }}>
        <SearchBox value={params.q} onSearch={onSearch} />
        <BotSelect params={params} bots={bots} change={change} allowAll />
        <Stack direction="row" sx={{ gap: 1.5, flexShrink: 0 }}>
          <TextField
            size="small"
            type="date"
            label="From"
            value={params.from}
            onChange={(event) => change({ from: event.target.value, conversationId: null })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: params.to || undefined } }}
            fullWidth={false}
            sx={{ flex: 1, minWidth: 0, width: { sm: 160 } }}
          />
          <TextField
            size="small"
            type="date"
            label="To"
            value={params.to}
            onChange={(event) => change({ to: event.target.value, conversationId: null })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: params.from || undefined } }}
            fullWidth={false}
            sx={{ flex: 1, minWidth: 0, width: { sm: 160 } }}
          />
        </Stack>
      </Stack>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip
          label="Waiting for you"
          color={params.filter === 'waiting' ? 'warning' : 'default'}
          variant={params.filter === 'waiting' ? 'filled' : 'outlined'}
          onClick={() => toggle('waiting')}
          aria-pressed={params.filter === 'waiting'}
        />
        <Chip
          label="Unanswered"
          color={params.filter === 'unanswered' ? 'warning' : 'default'}
          variant={params.filter === 'unanswered' ? 'filled' : 'outlined'}
          onClick={() => toggle('unanswered')}
          aria-pressed={params.filter === 'unanswered'}
        />
        <Chip
          label="Thumbs down"
          icon={<ThumbDownRounded fontSize="small" />}
          color={params.filter === 'negative' ? 'error' : 'default'}
          variant={params.filter === 'negative' ? 'filled' : 'outlined'}
          onClick={() => toggle('negative')}
          aria-pressed={params.filter === 'negative'}
        />
        <Chip
          label="Used an action"
          color={params.filter === 'action' ? 'primary' : 'default'}
          variant={params.filter === 'action' ? 'filled' : 'outlined'}
          onClick={() => toggle('action')}
          aria-pressed={params.filter === 'action'}
        />
        <Chip
          label="Action failed"
          color={params.filter === 'action_failed' ? 'error' : 'default'}
          variant={params.filter === 'action_failed' ? 'filled' : 'outlined'}
          onClick={() => toggle('action_failed')}
          aria-pressed={params.filter === 'action_failed'}
        />
        {narrowed && (
          <Button
            size="small"
            onClick={() => change({ botId: null, q: '', from: '', to: '', filter: 'all', conversationId: null })}
          >
            Clear filters
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          size="small"
          startIcon={<FileDownloadOutlined />}
          onClick={() => void exportFile()}
          loading={exporting}
          disabled={list.status !== 'ready' || list.conversations.length === 0}
        >
          Export
        </Button>
      </Stack>
    </Stack>
  );

  const transcript = params.conversationId !== null && (
    <TranscriptPane
      key={params.conversationId}
      conversationId={params.conversationId}
      onBack={wide ? undefined : () => change({ conversationId: null })}
      onDeleted={deleted}
      onChanged={list.changed}
      onFix={onFix}
    />
  );

  if (!wide) {
    // On a phone the list and the transcript are separate screens.
    return (
      transcript || (
        <>
          {filters}
          <Paper variant="outlined" sx={{ borderRadius: 2, overflow: 'hidden' }}>
            <ConversationList list={list} selectedId={null} onOpen={open} narrowed={narrowed} />
          </Paper>
        </>
      )
    );
  }

  return (
    <>
      {filters}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(300px, 380px) 1fr', gap: 2 }}>
        <Paper variant="outlined" sx={{ borderRadius: 2, height: PANE_HEIGHT, overflowY: 'auto' }}>
          <ConversationList list={list} selectedId={params.conversationId} onOpen={open} narrowed={narrowed} />
        </Paper>
        <Paper variant="outlined" sx={{ borderRadius: 2, height: PANE_HEIGHT, overflowY: 'auto', p: 2.5 }}>
          {transcript || (
            <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', color: 'text.secondary' }}>
              <Typography variant="body2">Choose a conversation to read it.</Typography>
            </Stack>
          )}
        </Paper>
      </Box>
    </>
  );
}

function QuestionsView({
  params,
  bots,
  change,
  onFix,
  fixedNow,
}: {
  params: InboxParams;
  bots: BotResponse[] | null;
  change: Change;
  onFix: (target: FixTarget) => void;
  fixedNow: readonly FixTarget[];
}) {
  const chosen = params.botId !== null && bots?.some((bot) => bot.id === params.botId) ? params.botId : null;
  // With one bot there is nothing to choose: its questions show at once.
  const botId = chosen ?? (bots?.length === 1 ? bots[0].id : null);
  return (
    <>
      <Box sx={{ mb: 2 }}>
        <BotSelect params={{ ...params, botId }} bots={bots} change={change} allowAll={false} />
      </Box>
      {botId === null ? (
        <Typography variant="body2" color="textSecondary">
          {bots?.length === 0
            ? 'Create a bot first: its unanswered questions appear here.'
            : 'Choose a bot to see the questions it could not answer.'}
        </Typography>
      ) : (
        <UnansweredQuestions
          botId={botId}
          period={params.period}
          onPeriod={(period: QuestionPeriod) => change({ period })}
          onFix={onFix}
          fixedNow={fixedNow.filter((target) => target.botId === botId).map((target) => target.question)}
        />
      )}
    </>
  );
}
