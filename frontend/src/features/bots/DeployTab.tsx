import CheckRounded from '@mui/icons-material/CheckRounded';
import CodeRounded from '@mui/icons-material/CodeRounded';
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import type { Bot } from '../../api/types';

export interface DeployTabProps {
  bot: Bot;
}

/** The one line an owner pastes into their site. */
export function embedSnippet(botId: number, origin = window.location.origin): string {
  return `<script src="${origin}/widget.js" data-bot-id="${botId}" async></script>`;
}

/** The Deploy tab: Generate Code shows the embed snippet; Copy to Clipboard copies it. */
export function DeployTab({ bot }: DeployTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [snippet, setSnippet] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    if (!snippet) return;
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied(true);
      enqueueSnackbar('Widget snippet copied to clipboard!', { variant: 'success' });
    } catch {
      enqueueSnackbar('Failed to copy snippet.', { variant: 'error' });
    }
  };

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
      {snippet === null ? (
        <Box>
          <Button variant="contained" startIcon={<CodeRounded />} onClick={() => setSnippet(embedSnippet(bot.id))}>
            Generate Code
          </Button>
        </Box>
      ) : (
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
              onClick={() => void copy()}
            >
              Copy to Clipboard
            </Button>
          </Box>
        </>
      )}
    </Stack>
  );
}
