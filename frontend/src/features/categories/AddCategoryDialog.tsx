import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { categoriesApi } from '../../api';
import { ApiError } from '../../api/client';
import type { Category } from '../../api/types';

export interface AddCategoryDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (category: Category) => void;
}

const NAME_MAX = 100;

/** The add-category modal: a category name, trimmed and required. */
export function AddCategoryDialog({ open, onClose, onCreated }: AddCategoryDialogProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Category name is required.');
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const { category } = await categoriesApi.create(name);
      onCreated(category);
    } catch (failure) {
      // A duplicate name (409) or a refused name: the server's sentence says what to change.
      setError(
        failure instanceof ApiError && failure.fromServer && failure.status < 500
          ? failure.message
          : 'Error adding category.',
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="add-category-title"
      slotProps={{
        transition: {
          onExited: () => {
            setName('');
            setError(null);
          },
        },
      }}
    >
      <form noValidate onSubmit={(event) => void add(event)}>
        <DialogTitle id="add-category-title">Add Category</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            label="Category Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(null);
            }}
            error={Boolean(error)}
            helperText="Group bots by client, website or team."
            slotProps={{ htmlInput: { maxLength: NAME_MAX } }}
            sx={{ mt: 1 }}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button color="inherit" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? 'Adding…' : 'Add Category'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
