import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export interface BotUsageTabProps {
  botId: number;
}

/** The edit-bot modal's Usage tab: current usage, usage limit and the 10-day chart. Being built out in issue 8. */
export function BotUsageTab({ botId }: BotUsageTabProps) {
  return (
    <Box data-bot-id={botId}>
      <Typography variant="h6">Usage</Typography>
    </Box>
  );
}
