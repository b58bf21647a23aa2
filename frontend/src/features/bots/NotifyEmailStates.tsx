import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { NotifyEmailState } from '@botsmith/contract';
import { useSnackbar } from 'notistack';
import { useCallback, useState } from 'react';
import { mailApi } from '../../api';
import { useApiResource } from '../../hooks/useApiResource';
import { serverMessage } from '../../api/serverMessage';

export interface NotifyEmailStatesProps {
  botId: number;
}

const STATE_LABELS: Record<NotifyEmailState, string> = {
  account: 'Your account address',
  confirmed: 'Confirmed',
  pending: 'Waiting for confirmation',
};

/**
 * Each saved lead address and whether it may receive leads (docs/product.md#mail-consent): the
 * owner's own address, confirmed, or waiting for its confirmation (with Resend). Give it a new
 * `key` after a save to read the states again.
 */
export function NotifyEmailStates({ botId }: NotifyEmailStatesProps) {
  const { enqueueSnackbar } = useSnackbar();
  const load = useCallback(() => mailApi.notifyEmails(botId), [botId]);
  const states = useApiResource(load);
  const [sending, setSending] = useState<string | null>(null);

  if (states.status !== 'ready' || states.data.addresses.length === 0) return null;

  const resend = async (email: string) => {
    setSending(email);
    try {
      const updated = await mailApi.resend(botId, email);
      states.update(() => updated);
      enqueueSnackbar(`Confirmation sent to ${email}.`, { variant: 'success' });
    } catch (failure) {
      enqueueSnackbar(serverMessage(failure) ?? 'The confirmation could not be sent. Please try again.', {
        variant: 'error',
      });
    } finally {
      setSending(null);
    }
  };

  return (
    <div>
      <Typography variant="body2" color="textSecondary">
        Each address other than yours gets an e-mail to confirm, and receives leads once it has. Until one has, leads go
        to your account address.
      </Typography>
      <List dense aria-label="Lead addresses">
        {states.data.addresses.map((address) => (
          <ListItem
            key={address.email}
            disableGutters
            secondaryAction={
              address.state === 'pending' ? (
                <Button
                  size="small"
                  onClick={() => void resend(address.email)}
                  disabled={sending !== null}
                  aria-label={`Resend the confirmation to ${address.email}`}
                >
                  Resend
                </Button>
              ) : undefined
            }
          >
            <ListItemText primary={address.email} />
            <Chip
              size="small"
              sx={{ mr: address.state === 'pending' ? 10 : 0 }}
              color={address.state === 'pending' ? 'warning' : 'success'}
              variant="outlined"
              label={STATE_LABELS[address.state]}
            />
          </ListItem>
        ))}
      </List>
    </div>
  );
}
