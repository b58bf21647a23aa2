import { DEFAULT_COLOURS } from '@botsmith/contract';
import AddRounded from '@mui/icons-material/AddRounded';
import ChatBubbleRounded from '@mui/icons-material/ChatBubbleRounded';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { BotResponse } from '../../api/types';
import { modelLabel } from '../bots/botOptions';
import { gradientOrSolid, formatGradient } from '../bots/gradient';

export const BOT_CARD_HEIGHT = 168;

const cardSx = {
  height: BOT_CARD_HEIGHT,
  borderRadius: 3,
  transition: 'box-shadow 160ms ease, border-color 160ms ease, transform 160ms ease',
  '&:hover': { boxShadow: 4, borderColor: 'primary.light', transform: 'translateY(-2px)' },
  '&:focus-within': { borderColor: 'primary.main' },
} as const;

export interface BotCardProps {
  bot: BotResponse;
  onOpen: (bot: BotResponse) => void;
}

/** A bot in the grid: its launcher as visitors see it, its name and model; opens the edit modal. */
export function BotCard({ bot, onOpen }: BotCardProps) {
  const launcher = formatGradient(gradientOrSolid(bot.bubbleColor, DEFAULT_COLOURS.bubbleColor));
  return (
    <Card component="li" sx={cardSx}>
      <CardActionArea
        onClick={() => onOpen(bot)}
        aria-label={`${bot.name} settings`}
        sx={{ height: '100%', p: 2.5, display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Avatar
            src={bot.bubbleIcon || undefined}
            alt=""
            sx={{ width: 48, height: 48, backgroundImage: launcher, color: 'common.white', boxShadow: 1 }}
          >
            <ChatBubbleRounded fontSize="small" />
          </Avatar>
          <SettingsOutlined aria-hidden sx={{ color: 'text.secondary' }} />
        </Stack>
        <Box sx={{ mt: 'auto', minWidth: 0 }}>
          <Typography
            variant="h6"
            component="h3"
            title={bot.name}
            sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {bot.name}
          </Typography>
          <Stack direction="row" spacing={0.75} sx={{ mt: 0.75, alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Chip size="small" label={modelLabel(bot.model)} />
            {bot.document && (
              <Chip
                size="small"
                variant="outlined"
                icon={<DescriptionOutlined />}
                label="Document"
                title={bot.document.originalName}
              />
            )}
          </Stack>
        </Box>
      </CardActionArea>
    </Card>
  );
}

export interface AddBotCardProps {
  onClick: () => void;
}

/** The 'Add New Bot' card at the end of the grid. */
export function AddBotCard({ onClick }: AddBotCardProps) {
  return (
    <Card
      component="li"
      sx={(theme) => ({
        ...cardSx,
        borderStyle: 'dashed',
        borderWidth: 2,
        bgcolor: alpha(theme.palette.primary.main, 0.03),
      })}
    >
      <CardActionArea
        onClick={onClick}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', gap: 1, color: 'primary.main' }}
      >
        <Avatar sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', width: 44, height: 44 }}>
          <AddRounded />
        </Avatar>
        <Typography variant="subtitle1" component="span" sx={{ fontWeight: 700, color: 'primary.dark' }}>
          Add New Bot
        </Typography>
      </CardActionArea>
    </Card>
  );
}
