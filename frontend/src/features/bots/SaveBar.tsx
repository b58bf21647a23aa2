import Box from '@mui/material/Box';
import { SubmitButton } from '../../components/SubmitButton';

export interface SaveBarProps {
  label: string;
  saving: boolean;
  disabled?: boolean;
}

/** The submit button of a tab's form (SubmitButton), kept in view at the bottom of the modal while scrolling. */
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
      <SubmitButton label={label} saving={saving} disabled={disabled} />
    </Box>
  );
}
