import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useState, type FormEvent, type ReactNode } from 'react';

/**
 * The state of a dialog's form: whether a submit was tried (fields show their errors only then),
 * whether it is being saved, and the error the save failed with.
 */
export function useDialogForm(errorText: (failure: unknown) => string) {
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setTouched(false);
    setError(null);
  };

  /** Marks the fields touched; when they are valid, saves and shows a failure as `errorText(failure)`. */
  const submit = async (event: FormEvent, valid: boolean, save: () => Promise<void>) => {
    event.preventDefault();
    // The dialog sits inside other forms in the React tree; its submit is its own.
    event.stopPropagation();
    setTouched(true);
    if (!valid) return;
    setSaving(true);
    setError(null);
    try {
      await save();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setSaving(false);
    }
  };

  return { touched, saving, error, reset, submit };
}

export interface DialogFormProps {
  /** Id of the title element, which labels the dialog. */
  titleId: string;
  title: string;
  /** A sentence between the title and the fields. */
  description?: string;
  form: Pick<ReturnType<typeof useDialogForm>, 'saving' | 'error'>;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
  submitLabel: string;
  /** The fields, stacked; the save's error follows them. */
  children: ReactNode;
}

/** The inside of a form dialog: title, fields, the save's error, Cancel and a submit button that shows progress. */
export function DialogForm({
  titleId,
  title,
  description,
  form,
  onSubmit,
  onCancel,
  submitLabel,
  children,
}: DialogFormProps) {
  return (
    <form noValidate onSubmit={onSubmit}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {description && <DialogContentText sx={{ mb: 2 }}>{description}</DialogContentText>}
        {/* Right under the title the outlined labels need room to float. */}
        <Stack spacing={2.5} sx={description ? undefined : { pt: 1 }}>
          {children}
          {form.error && <Alert severity="error">{form.error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={form.saving}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" loading={form.saving}>
          {submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}

export interface FormDialogProps extends Omit<DialogFormProps, 'onCancel'> {
  open: boolean;
  /** Cancel, Escape and the backdrop close the dialog, except while it saves. */
  onClose: () => void;
}

/** A modal form: a `DialogForm` in a dialog that cannot be closed while it saves. */
export function FormDialog({ open, onClose, ...formProps }: FormDialogProps) {
  const close = () => {
    if (!formProps.form.saving) onClose();
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby={formProps.titleId}>
      <DialogForm {...formProps} onCancel={close} />
    </Dialog>
  );
}
