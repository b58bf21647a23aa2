import CheckRounded from '@mui/icons-material/CheckRounded';
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import KeyRounded from '@mui/icons-material/KeyRounded';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { botsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import { serverMessage } from '../../api/serverMessage';
import { useCopy } from './useCopy';
import { VerifiedVisitorsSection } from './VerifiedVisitorsSection';

export interface DeployTabProps {
  bot: BotResponse;
  /** Called with the bot carrying its new API key after a rotation. */
  onSaved: (bot: BotResponse) => void;
}

/** The one line an owner pastes into their site. */
export function embedSnippet(botId: number, origin = window.location.origin): string {
  return `<script src="${origin}/widget.js" data-bot-id="${botId}" async></script>`;
}

/**
 * The Deploy tab (docs/product.md#edit-bot-modal): the embed snippet at once with Copy to Clipboard,
 * the API key, and verified visitors.
 */
export function DeployTab({ bot, onSaved }: DeployTabProps) {
  const snippet = embedSnippet(bot.id);
  const { copied, copy } = useCopy('Widget snippet copied to clipboard!', 'Failed to copy snippet.');

  return (
    <Stack spacing={2.5}>
      <Box>
        <Typography variant="h6" component="h3">
          Add {bot.name} to your website
        </Typography>
        <Typography variant="body2" color="textSecondary">
          Paste this line just before the closing &lt;/body&gt; tag of every page where the chat should appear.
          {bot.allowedDomain
            ? ` It works on ${bot.allowedDomain} and its subdomains.`
            : ' It works on any site until you set an allowed domain in Details.'}
        </Typography>
      </Box>
      <>
        <Box
          component="pre"
          aria-label="Embed snippet"
          tabIndex={0}
          sx={{
            m: 0,
            p: 2,
            borderRadius: 2,
            bgcolor: 'grey.900',
            color: 'grey.100',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: '0.875rem',
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
          }}
        >
          <code>{snippet}</code>
        </Box>
        <Box>
          <Button
            variant="contained"
            startIcon={copied ? <CheckRounded /> : <ContentCopyRounded />}
            onClick={() => void copy(snippet)}
          >
            Copy to Clipboard
          </Button>
        </Box>
      </>
      <HostApiSection />
      <Divider />
      <ApiKeySection bot={bot} onSaved={onSaved} />
      <Divider />
      <VerifiedVisitorsSection botId={bot.id} />
    </Stack>
  );
}

/** What a host page can call on the widget (docs/product.md#the-widgets-api-for-host-pages). */
export const HOST_API_EXAMPLE = `<button type="button" onclick="window.Botsmith?.open()">Chat with us</button>
<button type="button" onclick="window.Botsmith?.send('Where is my order?')">Track my order</button>`;

/** How the owner's own page can open, close or send through the widget. */
function HostApiSection() {
  const { copied, copy } = useCopy('Example copied to clipboard!', 'Failed to copy the example.');
  return (
    <Box>
      <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
        Open the chat from your own buttons
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
        Once the snippet is on a page, the page can call <code>window.Botsmith.open()</code>,{' '}
        <code>window.Botsmith.close()</code>, <code>window.Botsmith.send(text)</code>, which opens the chat and asks the
        question for the visitor, and <code>window.Botsmith.identify(&#123; name, email &#125;)</code>, which shows a
        signed-in visitor&apos;s name and e-mail with their conversation in your inbox. For example:
      </Typography>
      <Box
        component="pre"
        aria-label="Host page example"
        tabIndex={0}
        sx={{
          m: 0,
          p: 2,
          borderRadius: 2,
          bgcolor: 'grey.100',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: '0.8125rem',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        <code>{HOST_API_EXAMPLE}</code>
      </Box>
      <Button
        size="small"
        sx={{ mt: 1 }}
        startIcon={copied ? <CheckRounded /> : <ContentCopyRounded />}
        onClick={() => void copy(HOST_API_EXAMPLE)}
      >
        Copy example
      </Button>
    </Box>
  );
}

/** The key with all but its last 4 characters hidden. */
function maskKey(key: string): string {
  return key.length <= 4 ? '•'.repeat(key.length) : `${'•'.repeat(Math.min(key.length - 4, 24))}${key.slice(-4)}`;
}

/**
 * The bot's API key for the owner's own server, and 'Rotate key': a second click confirms, and
 * from then on only the new key is accepted.
 */
function ApiKeySection({ bot, onSaved }: DeployTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Masked until asked for: a key on screen is a key in every screenshot and screen share.
  const [shown, setShown] = useState(false);
  const { copied, copy } = useCopy('API key copied to clipboard!', 'Failed to copy the API key.');

  const rotate = async () => {
    setRotating(true);
    setError(null);
    try {
      const { apiKey } = await botsApi.rotateApiKey(bot.id);
      onSaved({ ...bot, apiKey });
      setConfirming(false);
      enqueueSnackbar('API key rotated. The old key no longer works.', { variant: 'success' });
    } catch (failure) {
      setError(serverMessage(failure) ?? 'Error rotating the API key.');
    } finally {
      setRotating(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h6" component="h3">
          API key
        </Typography>
        <Typography variant="body2" color="textSecondary">
          Your own server can call the chat API with this key (header Authorization: Bearer &lt;key&gt;); it skips the
          allowed-domain check, so keep it on your server and never in a web page. If it leaks, rotate it.
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          The chat call (POST /api/chat) and every other route are described in the{' '}
          <Link href="/api/docs" target="_blank" rel="noopener">
            API reference
          </Link>
          .
        </Typography>
      </Box>
      <TextField
        label="API key"
        value={shown ? bot.apiKey : maskKey(bot.apiKey)}
        slotProps={{
          htmlInput: { readOnly: true, spellCheck: false },
          input: {
            sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  aria-label={shown ? 'Hide API key' : 'Show API key'}
                  onClick={() => setShown((value) => !value)}
                  size="small"
                >
                  {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
                </IconButton>
                <IconButton aria-label="Copy API key" onClick={() => void copy(bot.apiKey)} size="small" edge="end">
                  {copied ? <CheckRounded fontSize="small" /> : <ContentCopyRounded fontSize="small" />}
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      {confirming ? (
        <Stack spacing={1.5}>
          <Alert severity="warning">
            The current key stops working at once. Anything still using it will be refused until you give it the new
            key.
          </Alert>
          <Stack direction="row" spacing={1.5}>
            <Button variant="contained" color="warning" disabled={rotating} onClick={() => void rotate()}>
              Yes, Rotate Key
            </Button>
            <Button variant="outlined" color="inherit" disabled={rotating} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Box>
          <Button variant="outlined" startIcon={<KeyRounded />} onClick={() => setConfirming(true)}>
            Rotate key
          </Button>
        </Box>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
