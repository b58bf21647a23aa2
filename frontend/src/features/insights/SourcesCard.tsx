import type { AnalyticsResponse } from '@botsmith/contract';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { BotResponse } from '../../api/types';

export interface SourcesCardProps {
  sources: AnalyticsResponse['sources'];
  /** The bot the figures are for; null: all of the owner's bots (each source then names its bot). */
  botId: number | null;
  bots: BotResponse[] | null;
}

const listSx = { listStyle: 'none', m: 0, p: 0 } as const;

/**
 * The knowledge sources the period's answers cited most, with how often, and those they never
 * cited (docs/product.md#analytics).
 */
export function SourcesCard({ sources, botId, bots }: SourcesCardProps) {
  const { cited, neverCited } = sources;
  const botName = (id: number) => (botId === null ? (bots?.find((bot) => bot.id === id)?.name ?? null) : null);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Sources
      </Typography>
      {cited.length === 0 && neverCited.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          {botId === null ? 'Your bots have no knowledge sources.' : 'This bot has no knowledge sources.'} Add files,
          pages or text in a bot's Knowledge tab and the answers that cite them show here.
        </Typography>
      ) : (
        <>
          <Typography variant="subtitle2" component="h3" id="insights-sources-cited">
            Most cited
          </Typography>
          {cited.length === 0 ? (
            <Typography variant="body2" color="textSecondary" sx={{ mb: 1.5 }}>
              No answer cited a source in this period.
            </Typography>
          ) : (
            <Box component="ul" aria-labelledby="insights-sources-cited" sx={{ ...listSx, mb: 1.5 }}>
              {cited.map((source) => (
                <Box component="li" key={source.sourceId} sx={{ display: 'flex', gap: 1, py: 0.5 }}>
                  <SourceName name={source.name} bot={botName(source.botId)} />
                  <Typography variant="body2" color="textSecondary" sx={{ whiteSpace: 'nowrap' }}>
                    {source.citations} {source.citations === 1 ? 'citation' : 'citations'}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
          <Typography variant="subtitle2" component="h3" id="insights-sources-never">
            Never cited
          </Typography>
          {neverCited.length === 0 ? (
            <Typography variant="body2" color="textSecondary">
              Every source was cited at least once.
            </Typography>
          ) : (
            <Box component="ul" aria-labelledby="insights-sources-never" sx={listSx}>
              {neverCited.map((source) => (
                <Box component="li" key={source.sourceId} sx={{ display: 'flex', py: 0.5 }}>
                  <SourceName name={source.name} bot={botName(source.botId)} />
                </Box>
              ))}
            </Box>
          )}
        </>
      )}
    </Paper>
  );
}

function SourceName({ name, bot }: { name: string; bot: string | null }) {
  return (
    <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
      {name}
      {bot !== null && (
        <Typography component="span" variant="body2" color="textSecondary">
          {' '}
          · {bot}
        </Typography>
      )}
    </Typography>
  );
}
