import { ANALYTICS_LIMITS, type AnalyticsTopic } from '@botsmith/contract';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { inboxLink } from '../conversations/inboxParams';
import { formatRate } from './insightsFormat';

export interface TopicsCardProps {
  topics: AnalyticsTopic[];
  /** How many conversations the topics were read from (the API's `topicConversations`). */
  topicConversations: number;
  /** The bot the figures are for; null: all of the owner's bots. */
  botId: number | null;
}

/** The inbox searching for a topic's words (in the chosen bot's conversations, when one is chosen). */
export function topicLink(topic: Pick<AnalyticsTopic, 'text'>, botId: number | null): string {
  return inboxLink({ q: topic.text, botId });
}

/**
 * What visitors asked first, most asked first (docs/product.md#analytics): each topic with its
 * conversations and resolution rate, a link to the inbox searching for it.
 */
export function TopicsCard({ topics, topicConversations, botId }: TopicsCardProps) {
  const capped = topicConversations >= ANALYTICS_LIMITS.topicConversationsMax;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0 }}>
      <Typography variant="h6" component="h2" id="insights-topics" sx={{ mb: 1 }}>
        Topics
      </Typography>
      {topics.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          No questions to group in this period.
        </Typography>
      ) : (
        <List dense disablePadding aria-labelledby="insights-topics">
          {topics.map((topic) => (
            <li key={topic.text}>
              <ListItemButton
                component={RouterLink}
                to={topicLink(topic, botId)}
                sx={{ px: 1, borderRadius: 1, display: 'block' }}
              >
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
                  <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                    {topic.text}
                  </Typography>
                  <Typography variant="body2" color="textSecondary" sx={{ whiteSpace: 'nowrap' }}>
                    {topic.conversations} {topic.conversations === 1 ? 'conversation' : 'conversations'}
                  </Typography>
                </Box>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 0.5 }}>
                  <LinearProgress
                    variant="determinate"
                    color="success"
                    value={Math.round((topic.resolutionRate ?? 0) * 100)}
                    aria-hidden="true"
                    // A grey track: the success colour's pale one read as a full bar at 0%.
                    sx={{ flex: 1, height: 6, borderRadius: 3, bgcolor: 'grey.200' }}
                  />
                  <Typography variant="caption" color="textSecondary" sx={{ minWidth: 80, textAlign: 'right' }}>
                    {/* Its conversations are all under way (quiet for less than 30 minutes): no outcome yet. */}
                    {topic.resolutionRate === null ? 'Not decided yet' : `${formatRate(topic.resolutionRate)} resolved`}
                  </Typography>
                </Box>
              </ListItemButton>
            </li>
          ))}
        </List>
      )}
      {capped && (
        <Typography variant="caption" color="textSecondary" component="p" sx={{ mt: 1 }}>
          From the latest {topicConversations.toLocaleString('en-US')} conversations
        </Typography>
      )}
    </Paper>
  );
}
