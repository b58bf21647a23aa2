import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';

export interface SubmitButtonProps extends Omit<ButtonProps, 'type' | 'children' | 'onClick'> {
  label: string;
  saving: boolean;
}

/**
 * A form's submit button. While saving it reads "Saving…" with a spinner and refuses to submit
 * again, but stays focusable (`aria-disabled`, not `disabled`): a disabled button drops the
 * keyboard focus to the page's body, where a dialog no longer hears Escape or Tab.
 */
export function SubmitButton({ label, saving, variant = 'contained', ...props }: SubmitButtonProps) {
  return (
    <Button
      {...props}
      type="submit"
      variant={variant}
      aria-disabled={saving || undefined}
      // A click (and Enter in a field, which clicks the form's submit button) submits nothing more while saving.
      onClick={saving ? (event) => event.preventDefault() : undefined}
      startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
    >
      {saving ? 'Saving…' : label}
    </Button>
  );
}
