import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { categoriesApi } from '../../api';
import type { CategoryResponse } from '../../api/types';

export interface DeleteCategoryDialogProps {
  /** The category to delete; null closes the dialog. */
  category: CategoryResponse | null;
  onClose: () => void;
  onDeleted: (category: CategoryResponse) => void;
}

/** Asks 'Are you sure you want to delete this category?' and deletes it; its bots stay, uncategorised. */
export function DeleteCategoryDialog({ category, onClose, onDeleted }: DeleteCategoryDialogProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [deleting, setDeleting] = useState(false);
  // Keep the name on screen while the dialog fades out.
  const [shown, setShown] = useState<CategoryResponse | null>(category);
  if (category && category !== shown) setShown(category);

  const remove = async () => {
    if (!category) return;
    setDeleting(true);
    try {
      await categoriesApi.remove(category.id);
      enqueueSnackbar('Category deleted successfully!', { variant: 'success' });
      onDeleted(category);
    } catch {
      enqueueSnackbar('Error deleting category.', { variant: 'error' });
      onClose();
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Dialog
      open={category !== null}
      onClose={deleting ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby="delete-category-title"
      aria-describedby="delete-category-text"
    >
      <DialogTitle id="delete-category-title">Delete {shown?.name}?</DialogTitle>
      <DialogContent>
        <DialogContentText id="delete-category-text">Are you sure you want to delete this category?</DialogContentText>
        <DialogContentText variant="body2" sx={{ mt: 1 }}>
          Its bots are kept and move to All Bots without a category.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="inherit" onClick={onClose} disabled={deleting} autoFocus>
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={() => void remove()} disabled={deleting}>
          {deleting ? 'Deleting…' : 'Delete'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
