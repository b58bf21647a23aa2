import {
  OWNER_REPLY_LIMITS,
  type Citation,
  type ConversationSummary,
  type ConversationTranscript,
  type MessageRating,
  type TranscriptActionCall,
  type TranscriptMessage,
} from '@botsmith/contract';
import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import DeleteOutline from '@mui/icons-material/DeleteOutlineRounded';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import EditNoteRounded from '@mui/icons-material/EditNoteRounded';
import ExpandLessRounded from '@mui/icons-material/ExpandLessRounded';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import ThumbDownRounded from '@mui/icons-material/ThumbDownRounded';
import ThumbUpRounded from '@mui/icons-material/ThumbUpRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { conversationsApi } from '../../api';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { RetryAlert } from '../../components/RetryAlert';
import { serverMessage } from '../../api/serverMessage';
import { useApiResource } from '../../hooks/useApiResource';
import type { FixTarget } from './FixAnswerDialog';
import { formatMomentLong, isWebAddress, mailtoHref, visitorEmailOf, visitorLabel } from './inboxParams';
import { IdentityMark } from './IdentityMark';

/** While a person handles the conversation, the transcript is read again this often (new visitor messages). */
export const HANDOFF_REFRESH_MS = 4000;
const whileHandedOff = (data: ConversationTranscript) => (data.conversation.handoff ? HANDOFF_REFRESH_MS : null);

/** The longest reply the server accepts (docs/product.md#owner-replies). */
const REPLY_MAX_CHARS = OWNER_REPLY_LIMITS.contentMaxChars;

export interface TranscriptPaneProps {
  conversationId: number;
  /** On a phone the transcript is its own screen; this leads back to the list. */
  onBack?: () => void;
  onDeleted: (id: number) => void;
  /** The conversation's summary changed here (a reply, a handback, a refresh): its list row follows. */
  onChanged?: (conversation: ConversationSummary) => void;
  onFix: (target: FixTarget) => void;
}

/** One conversation, message by message, with each answer's sources, rating and "Unanswered" marker. */
export function TranscriptPane({ conversationId, onBack, onDeleted, onChanged, onFix }: TranscriptPaneProps) {
  const load = useCallback(() => conversationsApi.get(conversationId), [conversationId]);
  // While a person handles the conversation, the visitor's new messages appear without a reload:
  // the transcript is read again quietly, and a failed read is simply tried at the next tick.
  const transcript = useApiResource(load, { pollMs: whileHandedOff });
  const [confirming, setConfirming] = useState(false);
  const { update } = transcript;
  const summary = transcript.status === 'ready' ? transcript.data.conversation : null;
  useEffect(() => {
    if (summary) onChanged?.(summary);
  }, [summary, onChanged]);

  return (
    <Box
      component="section"
      aria-label="Transcript"
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}
    >
      {onBack && (
        <Box sx={{ mb: 1 }}>
          <Button startIcon={<ArrowBackRounded />} onClick={onBack} sx={{ ml: -1 }}>
            Back to conversations
          </Button>
        </Box>
      )}
      {transcript.status === 'loading' && (
        <Stack spacing={2} aria-busy="true" aria-label="Loading conversation">
          <Skeleton width="50%" height={32} />
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={64} sx={{ width: row % 2 ? '70%' : '60%' }} />
          ))}
        </Stack>
      )}
      {transcript.status === 'error' && (
        <RetryAlert onRetry={transcript.reload}>
          {serverMessage(transcript.error) ?? 'Error fetching the conversation.'}
        </RetryAlert>
      )}
      {transcript.status === 'ready' && (
        <>
          <Transcript
            data={transcript.data}
            onDelete={() => setConfirming(true)}
            onFix={onFix}
            onHandedBack={() =>
              update((data) => ({ ...data, conversation: { ...data.conversation, handoff: false, waiting: false } }))
            }
          />
          <ReplyBox
            conversationId={conversationId}
            botDeleted={transcript.data.conversation.botId === null}
            onSent={(message) =>
              update((data) => ({
                ...data,
                conversation: {
                  ...data.conversation,
                  handoff: true,
                  // The owner wrote last: nothing waits any more.
                  waiting: false,
                  messageCount: data.conversation.messageCount + 1,
                  lastMessageAt: message.createdAt,
                },
                messages: [...data.messages, message],
              }))
            }
          />
        </>
      )}
      <ConfirmDeleteDialog
        target={confirming ? conversationId : null}
        title="Delete this conversation?"
        text="Its messages are removed for good. This cannot be undone."
        deletedMessage="Conversation deleted."
        failedMessage="The conversation could not be deleted. Please try again."
        remove={(id) => conversationsApi.remove(id)}
        onClose={() => setConfirming(false)}
        onDeleted={(id) => {
          setConfirming(false);
          onDeleted(id);
        }}
      />
    </Box>
  );
}

function Transcript({
  data,
  onDelete,
  onFix,
  onHandedBack,
}: {
  data: ConversationTranscript;
  onDelete: () => void;
  onFix: (target: FixTarget) => void;
  onHandedBack: () => void;
}) {
  const { conversation, messages } = data;
  const callsBefore = groupCalls(data.actionCalls ?? [], messages);
  const { enqueueSnackbar } = useSnackbar();
  const [handingBack, setHandingBack] = useState(false);
  const handBack = async () => {
    setHandingBack(true);
    try {
      await conversationsApi.handBack(conversation.id);
      enqueueSnackbar('The bot answers this conversation again.', { variant: 'success' });
      onHandedBack();
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'The conversation could not be handed back. Please try again.', {
        variant: 'error',
      });
    } finally {
      setHandingBack(false);
    }
  };
  const botId = conversation.botId;
  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 1, pb: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h6" component="h2" noWrap title={conversation.botName}>
            {conversation.botName}
          </Typography>
          {/* What the host page said (Botsmith.identify): unverified, so shown, never acted on. */}
          <Typography variant="body2" noWrap>
            <Box component="span" sx={{ fontWeight: 600 }}>
              {visitorLabel(conversation)}
            </Box>
            {visitorEmailOf(conversation) && (
              <>
                {' · '}
                <Link href={mailtoHref(visitorEmailOf(conversation) ?? '')}>{visitorEmailOf(conversation)}</Link>
              </>
            )}
            <IdentityMark
              shown={conversation.visitorName !== null || conversation.visitorEmail !== null}
              verified={conversation.visitorVerified}
            />
          </Typography>
          <Typography variant="body2" color="textSecondary">
            Started {formatMomentLong(conversation.startedAt)} ·{' '}
            {conversation.messageCount === 1 ? '1 message' : `${conversation.messageCount} messages`}
          </Typography>
          {conversation.handoff && (
            <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mt: 0.5, flexWrap: 'wrap' }}>
              <Chip size="small" color="info" variant="outlined" label="Handoff" />
              <Typography variant="body2" color="textSecondary">
                You are handling this conversation: the bot stays quiet.
              </Typography>
              <Button size="small" loading={handingBack} onClick={() => void handBack()}>
                Hand back to the bot
              </Button>
            </Stack>
          )}
          {conversation.pageUrl && (
            <Typography variant="body2" color="textSecondary" noWrap title={conversation.pageUrl}>
              On{' '}
              {isWebAddress(conversation.pageUrl) ? (
                <Link href={conversation.pageUrl} target="_blank" rel="noopener noreferrer">
                  {conversation.pageUrl}
                </Link>
              ) : (
                conversation.pageUrl
              )}
            </Typography>
          )}
        </Box>
        <Tooltip title="Delete conversation">
          <IconButton aria-label="Delete conversation" onClick={onDelete} sx={{ '&:hover': { color: 'error.main' } }}>
            <DeleteOutline />
          </IconButton>
        </Tooltip>
      </Stack>
      {messages.length === 0 && <NoMessages conversation={conversation} />}
      <Stack component="ol" aria-label="Messages" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0, pt: 2 }}>
        {messages.map((message, index) => [
          ...(callsBefore.get(message.id) ?? []).map((call) => <ActionCallItem key={`call-${call.id}`} call={call} />),
          <MessageItem
            key={message.id}
            message={message}
            onFix={
              botId !== null && message.role === 'assistant'
                ? () => onFix({ botId, question: questionBefore(messages, index) })
                : undefined
            }
          />,
        ])}
        {(callsBefore.get(null) ?? []).map((call) => (
          <ActionCallItem key={`call-${call.id}`} call={call} />
        ))}
      </Stack>
    </>
  );
}

/**
 * A conversation without messages yet: a lead left before any chat (at the budget, or with the
 * form offered before the first message). Its preview is then the lead's message
 * (docs/product.md#leads-and-handoff), shown here so the pane does not stand empty.
 */
function NoMessages({ conversation }: { conversation: ConversationSummary }) {
  return (
    <Box sx={{ pt: 2 }}>
      <Typography variant="body2" color="textSecondary">
        {conversation.handoff
          ? 'No chat messages: the visitor left their details through the form.'
          : 'No messages in this conversation yet.'}
      </Typography>
      {conversation.handoff && conversation.preview && (
        <Box
          component="blockquote"
          aria-label="The visitor's message in the form"
          sx={{
            m: 0,
            mt: 1,
            px: 1.75,
            py: 1.25,
            borderRadius: 3,
            bgcolor: 'action.hover',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          <Typography variant="body2">{conversation.preview}</Typography>
        </Box>
      )}
    </Box>
  );
}

/**
 * The action calls by the message they go before (the answer they served); calls whose answer is
 * not in the list (never expected) under null, shown last rather than lost.
 */
function groupCalls(
  calls: TranscriptActionCall[],
  messages: TranscriptMessage[],
): Map<number | null, TranscriptActionCall[]> {
  const ids = new Set(messages.map((message) => message.id));
  const groups = new Map<number | null, TranscriptActionCall[]>();
  for (const call of calls) {
    const key = ids.has(call.messageId) ? call.messageId : null;
    groups.set(key, [...(groups.get(key) ?? []), call]);
  }
  return groups;
}

/** "Called order_status · 200 · 184 ms": what the row says before it is opened. */
export function actionCallSummary(call: TranscriptActionCall): string {
  const outcome = call.status !== null ? String(call.status) : call.failed ? 'failed' : 'no request';
  return `Called ${call.actionName} · ${outcome} · ${call.durationMs.toLocaleString('en-US')} ms`;
}

/** The filtered answer as the model read it, indented when it is JSON. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const MONO = {
  m: 0,
  p: 1,
  borderRadius: 1,
  bgcolor: 'action.hover',
  fontFamily: 'monospace',
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
} as const;

/**
 * One call an answer made to the bot's actions (docs/product.md#actions), between the messages:
 * a compact row that opens to the parameters sent and the filtered answer, or the failure.
 */
function ActionCallItem({ call }: { call: TranscriptActionCall }) {
  const [open, setOpen] = useState(false);
  const summary = actionCallSummary(call);
  const detailsId = `action-call-${call.id}`;
  return (
    <Box component="li" aria-label={`Action call: ${summary}`} sx={{ display: 'flex', flexDirection: 'column' }}>
      <Button
        size="small"
        variant="text"
        color={call.failed ? 'error' : 'inherit'}
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        aria-controls={detailsId}
        endIcon={open ? <ExpandLessRounded /> : <ExpandMoreRounded />}
        sx={{
          alignSelf: 'flex-start',
          maxWidth: '100%',
          textTransform: 'none',
          fontFamily: 'monospace',
          fontSize: 12,
          color: call.failed ? 'error.main' : 'text.secondary',
        }}
      >
        {summary}
      </Button>
      {open && (
        <Stack id={detailsId} spacing={0.75} sx={{ pl: 1, maxWidth: '85%' }}>
          <Typography variant="caption" color="textSecondary">
            Parameters
          </Typography>
          <Box component="pre" sx={MONO}>
            {JSON.stringify(call.parameters, null, 2)}
          </Box>
          {call.answer !== null && (
            <>
              <Typography variant="caption" color="textSecondary">
                Answer (the fields the bot saw)
              </Typography>
              <Box component="pre" sx={MONO}>
                {prettyJson(call.answer)}
              </Box>
            </>
          )}
          {call.error !== null && (
            <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
              {call.error}
            </Typography>
          )}
        </Stack>
      )}
    </Box>
  );
}

/** The visitor's message an answer replies to: the nearest user message before it. */
function questionBefore(messages: TranscriptMessage[], index: number): string {
  for (let i = index - 1; i >= 0; i--) {
    if (messages[i].role === 'user') return messages[i].content;
  }
  return '';
}

const ROLE_LABEL: Record<TranscriptMessage['role'], string> = {
  user: 'Visitor',
  assistant: 'Bot',
  error: 'Error',
  agent: 'You',
};

function MessageItem({ message, onFix }: { message: TranscriptMessage; onFix?: () => void }) {
  const visitor = message.role === 'user';
  const agent = message.role === 'agent';
  const who = agent && message.name ? `${ROLE_LABEL.agent} · ${message.name}` : ROLE_LABEL[message.role];
  const label = `${who}, ${formatMomentLong(message.createdAt)}`;
  return (
    <Box
      component="li"
      aria-label={label}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: visitor ? 'flex-end' : 'flex-start' }}
    >
      <Typography variant="caption" color="textSecondary" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      {message.role === 'error' ? (
        <Alert severity="warning" sx={{ maxWidth: '85%' }}>
          The bot could not reply: {message.content}
        </Alert>
      ) : (
        <Box
          sx={{
            maxWidth: '85%',
            px: 1.75,
            py: 1.25,
            borderRadius: 3,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            bgcolor: visitor ? 'primary.main' : 'action.hover',
            color: visitor ? 'primary.contrastText' : 'text.primary',
            ...(agent && { border: 1, borderColor: 'info.main' }),
            ...(message.unanswered && { border: 1, borderColor: 'warning.main' }),
          }}
        >
          <Typography variant="body2">{message.content}</Typography>
        </Box>
      )}
      {message.role === 'assistant' && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 0.75, mt: 0.75, maxWidth: '85%' }}>
          {message.unanswered && <Chip size="small" color="warning" variant="outlined" label="Unanswered" />}
          {message.rating && <RatingChip rating={message.rating} />}
          {message.citations.map((citation, index) => (
            <CitationChip key={`${citation.sourceId}:${citation.page ?? ''}:${index}`} citation={citation} />
          ))}
          {onFix && (
            <Button size="small" startIcon={<EditNoteRounded />} onClick={onFix}>
              Fix this answer
            </Button>
          )}
        </Stack>
      )}
    </Box>
  );
}

/**
 * The owner's reply to the visitor: Ctrl/Cmd+Enter or Send. The reply is the owner's own message
 * in the conversation, never charged; the first one hands the conversation off (the bot stays quiet).
 */
function ReplyBox({
  conversationId,
  botDeleted,
  onSent,
}: {
  conversationId: number;
  botDeleted: boolean;
  onSent: (message: TranscriptMessage) => void;
}) {
  const [content, setContent] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = content.trim();

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!trimmed || sending || trimmed.length > REPLY_MAX_CHARS) return;
    setSending(true);
    setError(null);
    try {
      const { message } = await conversationsApi.reply(conversationId, trimmed);
      setContent('');
      onSent(message);
    } catch (failure) {
      setError(serverMessage(failure) ?? 'Your reply could not be sent. Please try again.');
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  if (botDeleted) {
    return (
      <Typography variant="body2" color="textSecondary" sx={{ pt: 2, mt: 2, borderTop: 1, borderColor: 'divider' }}>
        This conversation&apos;s bot was deleted, so its visitor can no longer receive replies.
      </Typography>
    );
  }
  return (
    <Box
      component="form"
      aria-label="Reply"
      noValidate
      onSubmit={(event) => void send(event)}
      // Always in view: it sticks to the bottom of the transcript pane (of the screen on a phone)
      // however long the conversation, with the messages scrolling behind it.
      sx={{
        pt: 2,
        // On a wide screen the pane has 20 px of padding: the box covers it, so no message shows below.
        pb: { xs: 1, md: 2.5 },
        mt: 2,
        borderTop: 1,
        borderColor: 'divider',
        position: 'sticky',
        bottom: { xs: 0, md: -20 },
        zIndex: 1,
        bgcolor: 'background.paper',
      }}
    >
      <TextField
        label="Reply to the visitor"
        multiline
        minRows={2}
        maxRows={8}
        fullWidth
        value={content}
        onChange={(event) => setContent(event.target.value)}
        onKeyDown={onKeyDown}
        disabled={sending}
        error={trimmed.length > REPLY_MAX_CHARS}
        helperText={
          trimmed.length > REPLY_MAX_CHARS
            ? `Your reply can be at most ${REPLY_MAX_CHARS.toLocaleString('en-US')} characters.`
            : 'Ctrl+Enter (⌘+Enter on a Mac) sends. The bot stays quiet until you hand the conversation back.'
        }
      />
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 1 }}>
        <Button
          type="submit"
          variant="contained"
          loading={sending}
          disabled={!trimmed || trimmed.length > REPLY_MAX_CHARS}
        >
          Send reply
        </Button>
      </Stack>
    </Box>
  );
}

const RATING_CHIP = {
  up: { color: 'success', Icon: ThumbUpRounded, label: 'Helpful' },
  down: { color: 'error', Icon: ThumbDownRounded, label: 'Not helpful' },
} as const;

/** How the visitor rated an answer. */
function RatingChip({ rating }: { rating: MessageRating }) {
  const { color, Icon, label } = RATING_CHIP[rating];
  return (
    <Chip
      size="small"
      color={color}
      variant="outlined"
      icon={<Icon sx={{ fontSize: '16px !important' }} />}
      label={label}
    />
  );
}

/** A source an answer drew on; it links to the source when the source has an address. */
function CitationChip({ citation }: { citation: Citation }) {
  const text = citation.page !== null ? `${citation.name}, page ${citation.page}` : citation.name;
  const icon = <DescriptionOutlined sx={{ fontSize: '16px !important' }} />;
  return citation.url ? (
    <Chip
      size="small"
      icon={icon}
      label={text}
      component="a"
      href={citation.url}
      target="_blank"
      rel="noopener noreferrer"
      clickable
    />
  ) : (
    <Chip size="small" icon={icon} label={text} />
  );
}
