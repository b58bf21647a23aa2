import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { botsApi } from '../../api';
import type { BotSummary } from '../../api/types';
import { track } from '../../analytics/analytics';
import { BOT_LIMITS } from './botOptions';
import { serverMessage } from './botForms';

export interface AddBotDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (bot: BotSummary) => void;
}

/** The Add New Bot modal: one field, Bot Name; Create Bot and Cancel. */
export function AddBotDialog({ open, onClose, onCreated }: AddBotDialogProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const botName = name.trim();
    if (!botName) {
      setError('Bot name is required.');
      return;
    }
    setCreating(true);
    setError(null);
    try {
      const { bot } = await botsApi.create(botName);
      track('Bot Created', { bot_id: bot.id, bot_name: bot.name });
      enqueueSnackbar(`${bot.name} created successfully!`, { variant: 'success' });
      onCreated(bot);
    } catch (failure) {
      setError(serverMessage(failure) ?? 'Error creating bot.');
      enqueueSnackbar('Error creating bot.', { variant: 'error' });
    } finally {
      setCreating(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={creating ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="add-bot-title"
      slotProps={{
        transition: {
          onExited: () => {
            setName('');
            setError(null);
          },
        },
      }}
    >
      <form noValidate onSubmit={(event) => void create(event)}>
        <DialogTitle id="add-bot-title">Add New Bot</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Give your bot a name. You can style it, teach it and deploy it next.
          </DialogContentText>
          <TextField
            autoFocus
            label="Bot Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(null);
            }}
            error={Boolean(error)}
            slotProps={{ htmlInput: { maxLength: BOT_LIMITS.nameMax } }}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button color="inherit" onClick={onClose} disabled={creating}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={creating}>
            {creating ? 'Creating…' : 'Create Bot'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
