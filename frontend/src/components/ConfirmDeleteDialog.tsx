import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useSnackbar } from 'notistack';
import { useId, useState } from 'react';
import { serverMessage } from '../api/serverMessage';

export interface ConfirmDeleteDialogProps<Id> {
  /** What is being deleted; null closes the dialog. */
  target: Id | null;
  title: string;
  text: string;
  /** The toast once the server has deleted it. */
  deletedMessage: string;
  /** Shown when the server gives no reason of its own. */
  failedMessage: string;
  remove: (target: Id) => Promise<unknown>;
  onClose: () => void;
  onDeleted: (target: Id) => void;
}

/**
 * "Delete this …?" with Cancel and Delete: the call runs with a progress button, the server's
 * reason (or `failedMessage`) stays in the dialog, and it cannot be dismissed while deleting.
 */
export function ConfirmDeleteDialog<Id>({
  target,
  title,
  text,
  deletedMessage,
  failedMessage,
  remove,
  onClose,
  onDeleted,
}: ConfirmDeleteDialogProps<Id>) {
  const { enqueueSnackbar } = useSnackbar();
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  const confirm = async () => {
    if (target === null) return;
    setDeleting(true);
    setError(null);
    try {
      await remove(target);
      enqueueSnackbar(deletedMessage, { variant: 'success' });
      onDeleted(target);
    } catch (failure) {
      setError(serverMessage(failure) ?? failedMessage);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Dialog
      open={target !== null}
      onClose={() => !deleting && onClose()}
      aria-labelledby={titleId}
      slotProps={{ transition: { onExited: () => setError(null) } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={deleting}>
          Cancel
        </Button>
        <Button color="error" variant="contained" loading={deleting} onClick={() => void confirm()}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
