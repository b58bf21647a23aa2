import MailOutlineRounded from '@mui/icons-material/MailOutlineRounded';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** The feedback address of the dashboard's note (docs/product.md#dashboard). */
const FEEDBACK_EMAIL = 'feedback@botsmith.dev';

/** The dashboard's feedback note with the feedback address. */
export function FeedbackNote() {
  return (
    <Stack
      direction="row"
      spacing={1.5}
      sx={{
        alignItems: 'center',
        p: 2,
        borderRadius: 3,
        bgcolor: 'background.paper',
        border: 1,
        borderColor: 'divider',
      }}
    >
      <MailOutlineRounded color="primary" aria-hidden />
      <Typography variant="body2" color="textSecondary">
        Have feedback or an idea for Botsmith? We read every message:{' '}
        <Link href={`mailto:${FEEDBACK_EMAIL}`}>{FEEDBACK_EMAIL}</Link>
      </Typography>
    </Stack>
  );
}
