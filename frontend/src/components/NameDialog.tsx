import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';

export interface NameDialogProps {
  open: boolean;
  onClose: () => void;
  /** Id of the title element, which labels the dialog. */
  titleId: string;
  title: string;
  /** A sentence between the title and the field. */
  description?: string;
  label: string;
  helperText?: string;
  maxLength: number;
  /** Shown when the name is empty or only spaces; nothing is sent then. */
  requiredMessage: string;
  submitLabel: string;
  submittingLabel: string;
  /** Receives the name as typed (not trimmed); a rejection shows `errorText(failure)` in the dialog. */
  onSubmit: (name: string) => Promise<void>;
  errorText: (failure: unknown) => string;
}

/** A modal asking for one required name, with Cancel and a submit button that shows progress. */
export function NameDialog({
  open,
  onClose,
  titleId,
  title,
  description,
  label,
  helperText,
  maxLength,
  requiredMessage,
  submitLabel,
  submittingLabel,
  onSubmit,
  errorText,
}: NameDialogProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(requiredMessage);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await onSubmit(name);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={submitting ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby={titleId}
      slotProps={{
        transition: {
          onExited: () => {
            setName('');
            setError(null);
          },
        },
      }}
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {description && <DialogContentText sx={{ mb: 2 }}>{description}</DialogContentText>}
          <TextField
            autoFocus
            label={label}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(null);
            }}
            error={Boolean(error)}
            helperText={helperText}
            slotProps={{ htmlInput: { maxLength } }}
            // Right under the title the outlined label needs room to float.
            sx={description ? undefined : { mt: 1 }}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button color="inherit" onClick={onClose} disabled={submitting}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={submitting}>
            {submitting ? submittingLabel : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
