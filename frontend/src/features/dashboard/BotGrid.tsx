import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { BotResponse } from '../../api/types';
import { RetryAlert } from '../../components/RetryAlert';
import { AddBotCard, BOT_CARD_HEIGHT, BotCard } from './BotCard';

export interface BotGridProps {
  bots: BotResponse[] | null;
  loading: boolean;
  error: boolean;
  /** Shown above the grid when there are no bots in view. */
  emptyTitle: string;
  emptyText: string;
  onOpen: (bot: BotResponse) => void;
  onAdd: () => void;
  onRetry: () => void;
}

const gridSx = {
  listStyle: 'none',
  m: 0,
  p: 0,
  display: 'grid',
  gap: 2,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
} as const;

/** The bot cards and the 'Add New Bot' card; skeletons while loading; an empty state. */
export function BotGrid({ bots, loading, error, emptyTitle, emptyText, onOpen, onAdd, onRetry }: BotGridProps) {
  if (error) {
    return <RetryAlert onRetry={onRetry}>Error fetching bots.</RetryAlert>;
  }
  if (loading || !bots) {
    return (
      <Box component="ul" sx={gridSx} aria-busy="true" aria-label="Loading bots">
        {[0, 1, 2].map((key) => (
          <Box component="li" key={key}>
            <Skeleton variant="rounded" height={BOT_CARD_HEIGHT} sx={{ borderRadius: 3 }} />
          </Box>
        ))}
      </Box>
    );
  }
  return (
    <>
      {bots.length === 0 && (
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 2,
            mb: 2.5,
            p: 2.5,
            borderRadius: 3,
            border: 1,
            borderColor: 'divider',
            bgcolor: 'background.paper',
          }}
        >
          <SmartToyOutlined color="primary" sx={{ fontSize: 40 }} aria-hidden />
          <Box>
            <Typography variant="h6" component="p">
              {emptyTitle}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              {emptyText}
            </Typography>
          </Box>
        </Box>
      )}
      <Box component="ul" sx={gridSx} aria-label="Bots">
        {bots.map((bot) => (
          <BotCard key={bot.id} bot={bot} onOpen={onOpen} />
        ))}
        <AddBotCard onClick={onAdd} />
      </Box>
    </>
  );
}
