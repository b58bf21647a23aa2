import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { SimplePage } from './SimplePage';

/** Any path the app does not know. */
export function NotFoundPage() {
  return (
    <SimplePage title="Page not found">
      <Typography variant="subtitle1" sx={{ mb: 4 }}>
        We looked everywhere, but this page does not exist. It may have moved, or the link may be mistyped.
      </Typography>
      <Stack direction="row" spacing={2}>
        <Button component={RouterLink} to="/" variant="contained">
          Go to the home page
        </Button>
        <Button component={RouterLink} to="/dashboard" variant="outlined">
          Open your dashboard
        </Button>
      </Stack>
    </SimplePage>
  );
}
