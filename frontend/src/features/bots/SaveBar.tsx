import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';

export interface SaveBarProps {
  label: string;
  saving: boolean;
  disabled?: boolean;
}

/**
 * The submit button of a tab's form, kept in view at the bottom of the modal while scrolling.
 * While saving it refuses to submit again but stays focusable (`aria-disabled`, not `disabled`):
 * a disabled button drops the keyboard focus to the page's body, where the dialog no longer
 * hears Escape or Tab.
 */
export function SaveBar({ label, saving, disabled = false }: SaveBarProps) {
  return (
    <Box
      sx={{
        position: 'sticky',
        bottom: 0,
        mx: { xs: -2, sm: -3 },
        px: { xs: 2, sm: 3 },
        py: 1.5,
        display: 'flex',
        justifyContent: 'flex-end',
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'divider',
        zIndex: 1,
      }}
    >
      <Button
        type="submit"
        variant="contained"
        disabled={disabled}
        aria-disabled={saving || undefined}
        // A click (and Enter in a field, which clicks the form's submit button) submits nothing more while saving.
        onClick={saving ? (event) => event.preventDefault() : undefined}
        startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
      >
        {saving ? 'Saving…' : label}
      </Button>
    </Box>
  );
}
