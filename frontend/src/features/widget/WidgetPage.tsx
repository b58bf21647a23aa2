import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../layout/usePageTitle';
import { useWidgetScript } from '../landing/useWidgetScript';

/** A bot id as the URL gives it: a positive integer, or nothing. */
export function parseBotId(raw: string | null): number | undefined {
  if (!raw || !/^\d+$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 && Number.isSafeInteger(id) ? id : undefined;
}

/**
 * /widget?botId=ID: the bot's chat window alone, 350x500, fixed at the bottom right
 * (docs/product.md#widget-page). It is the real widget in its inline mode, so it looks exactly as on customers' sites.
 */
export function WidgetPage() {
  usePageTitle('Chat');
  const [params] = useSearchParams();
  const botId = parseBotId(params.get('botId'));
  useWidgetScript(botId, { inline: true });

  if (botId === undefined) {
    return (
      <Box component="main" sx={{ p: 3 }}>
        <Alert severity="error">Error: No botId specified in the URL.</Alert>
      </Box>
    );
  }
  return <Box component="main" aria-label="Chat widget" sx={{ minHeight: '100vh' }} />;
}
