import type { ConversationSummary } from '@botsmith/contract';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import ThumbDownRounded from '@mui/icons-material/ThumbDownRounded';
import ThumbUpRounded from '@mui/icons-material/ThumbUpRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RetryAlert } from '../../components/RetryAlert';
import type { ConversationList as ConversationListData } from './useConversationList';
import { formatMomentLong, formatWhen, visitorEmailOf, visitorLabel } from './inboxParams';
import { IdentityMark } from './IdentityMark';

export interface ConversationListProps {
  list: ConversationListData;
  selectedId: number | null;
  onOpen: (id: number) => void;
  /** Filters or a search narrow the list (the empty state then says so). */
  narrowed: boolean;
}

/** The inbox rows, newest first, with "Load more" while the server has further pages. */
export function ConversationList({ list, selectedId, onOpen, narrowed }: ConversationListProps) {
  if (list.status === 'loading') {
    return (
      <Stack spacing={1.5} aria-busy="true" aria-label="Loading conversations" sx={{ p: 1 }}>
        {[0, 1, 2, 3, 4].map((row) => (
          <Box key={row}>
            <Skeleton width="40%" height={20} />
            <Skeleton width="90%" height={22} />
            <Skeleton width="30%" height={18} />
          </Box>
        ))}
      </Stack>
    );
  }
  if (list.status === 'error') {
    return (
      <RetryAlert sx={{ m: 1 }} onRetry={list.reload}>
        Error fetching conversations.
      </RetryAlert>
    );
  }
  if (list.conversations.length === 0) {
    return (
      <Stack sx={{ alignItems: 'center', textAlign: 'center', py: 6, px: 3, color: 'text.secondary' }} spacing={1}>
        <ForumOutlined sx={{ fontSize: 40 }} />
        <Typography variant="subtitle1" component="p" color="textPrimary">
          {narrowed ? 'No conversations match' : 'No conversations yet'}
        </Typography>
        <Typography variant="body2">
          {narrowed
            ? 'Try other words, another bot or a wider date range, or clear the filters.'
            : 'When visitors chat with your bots, every conversation appears here.'}
        </Typography>
      </Stack>
    );
  }
  return (
    <>
      <List aria-label="Conversations" disablePadding>
        {list.conversations.map((conversation) => (
          <ConversationRow
            key={conversation.id}
            conversation={conversation}
            selected={conversation.id === selectedId}
            onOpen={() => onOpen(conversation.id)}
          />
        ))}
      </List>
      {list.moreFailed && (
        <Alert severity="error" sx={{ m: 1 }}>
          Error fetching more conversations.
        </Alert>
      )}
      {list.hasMore && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1.5 }}>
          <Button variant="outlined" onClick={list.loadMore} loading={list.loadingMore}>
            Load more
          </Button>
        </Box>
      )}
    </>
  );
}

function ConversationRow({
  conversation,
  selected,
  onOpen,
}: {
  conversation: ConversationSummary;
  selected: boolean;
  onOpen: () => void;
}) {
  const preview = conversation.preview || '(no message)';
  return (
    <ListItem disablePadding divider>
      <ListItemButton
        selected={selected}
        aria-current={selected ? 'true' : undefined}
        onClick={onOpen}
        sx={{ display: 'block', py: 1.25 }}
      >
        <Stack direction="row" sx={{ alignItems: 'baseline', gap: 1 }}>
          <Typography variant="caption" color="primary" sx={{ fontWeight: 700, flex: 1, minWidth: 0 }} noWrap>
            {conversation.botName}
          </Typography>
          <Typography
            variant="caption"
            color="textSecondary"
            component="time"
            dateTime={conversation.lastMessageAt}
            title={formatMomentLong(conversation.lastMessageAt)}
            sx={{ flexShrink: 0 }}
          >
            {formatWhen(conversation.lastMessageAt)}
          </Typography>
        </Stack>
        <Typography variant="body2" noWrap sx={{ mt: 0.25 }}>
          <Box component="span" sx={{ fontWeight: 600 }}>
            {visitorLabel(conversation)}
          </Box>
          {visitorEmailOf(conversation) && (
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {' · '}
              {visitorEmailOf(conversation)}
            </Box>
          )}
          <IdentityMark
            shown={conversation.visitorName !== null || conversation.visitorEmail !== null}
            verified={conversation.visitorVerified}
          />
        </Typography>
        <Typography
          variant="body2"
          sx={{
            display: '-webkit-box',
            WebkitLineClamp: 2,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            overflowWrap: 'anywhere',
            my: 0.25,
          }}
        >
          {preview}
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 0.75, flexWrap: 'wrap' }}>
          <Typography variant="caption" color="textSecondary">
            {conversation.messageCount === 1 ? '1 message' : `${conversation.messageCount} messages`}
          </Typography>
          {conversation.waiting && (
            <Chip size="small" color="warning" label="Waiting for you" sx={{ height: 20, fontWeight: 600 }} />
          )}
          {conversation.handoff && !conversation.waiting && (
            <Chip size="small" color="info" variant="outlined" label="Handoff" sx={{ height: 20 }} />
          )}
          {conversation.unanswered && (
            <Chip size="small" color="warning" variant="outlined" label="Unanswered" sx={{ height: 20 }} />
          )}
          {conversation.rating === 'down' && (
            <Chip
              size="small"
              color="error"
              variant="outlined"
              icon={<ThumbDownRounded sx={{ fontSize: '14px !important' }} />}
              label="Thumbs down"
              sx={{ height: 20 }}
            />
          )}
          {conversation.rating === 'up' && (
            <ThumbUpRounded color="success" aria-label="Rated helpful" sx={{ fontSize: 16 }} />
          )}
        </Stack>
      </ListItemButton>
    </ListItem>
  );
}
