import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * A thin bar across the top of the dashboard while the product runs as a demo (test-mode
 * payments allowed by the operator): owners must not believe a card they enter is charged.
 */
export function DemoModeBar() {
  return (
    <Box role="note" aria-label="Demo mode" sx={{ bgcolor: 'warning.main', color: 'warning.contrastText', py: 0.25 }}>
      <Typography variant="caption" component="p" sx={{ textAlign: 'center', fontWeight: 600 }}>
        Demo mode: no real charges
      </Typography>
    </Box>
  );
}
