import { categoriesApi } from '../../api';
import { ApiError } from '../../api/client';
import type { CategoryResponse } from '../../api/types';
import { NameDialog } from '../../components/NameDialog';

export interface AddCategoryDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (category: CategoryResponse) => void;
}

const NAME_MAX = 100;

/** The add-category modal: a category name, trimmed and required. */
export function AddCategoryDialog({ open, onClose, onCreated }: AddCategoryDialogProps) {
  return (
    <NameDialog
      open={open}
      onClose={onClose}
      titleId="add-category-title"
      title="Add Category"
      label="Category Name"
      helperText="Group bots by client, website or team."
      maxLength={NAME_MAX}
      requiredMessage="Category name is required."
      submitLabel="Add Category"
      submittingLabel="Adding…"
      onSubmit={async (name) => {
        const { category } = await categoriesApi.create(name);
        onCreated(category);
      }}
      // A duplicate name (409) or a refused name: the server's sentence says what to change.
      errorText={(failure) => (failure instanceof ApiError ? failure.displayable : null) ?? 'Error adding category.'}
    />
  );
}
