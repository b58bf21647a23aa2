import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { botsApi } from '../../api';
import type { BotResponse } from '../../api/types';

export interface DeleteBotTabProps {
  bot: BotResponse;
  onDeleted: (botId: number) => void;
}

/** The Delete tab: 'Delete' turns into 'Yes, Delete' with Cancel; the second click deletes. */
export function DeleteBotTab({ bot, onDeleted }: DeleteBotTabProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    setDeleting(true);
    setError(null);
    try {
      await botsApi.remove(bot.id);
      enqueueSnackbar('Bot successfully deleted!', { variant: 'success' });
      onDeleted(bot.id);
    } catch {
      setError('Error deleting bot.');
      setDeleting(false);
    }
  };

  return (
    <Stack spacing={2.5}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <WarningAmberRounded color="error" aria-hidden sx={{ mt: 0.25 }} />
        <Box>
          <Typography variant="h6" component="h3">
            Delete {bot.name}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            The bot, its reference document and its icon are deleted, and its widget stops answering on your site. Its
            conversations stay in your logs. This cannot be undone.
          </Typography>
        </Box>
      </Stack>
      <Stack direction="row" spacing={1.5}>
        {confirming ? (
          <>
            <Button variant="contained" color="error" disabled={deleting} onClick={() => void remove()}>
              Yes, Delete
            </Button>
            <Button variant="outlined" color="inherit" disabled={deleting} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        )}
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
