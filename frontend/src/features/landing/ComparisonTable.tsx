import CheckRounded from '@mui/icons-material/CheckRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { alpha } from '@mui/material/styles';
import { comparison } from './landingContent';

function Mark({ has }: { has: boolean }) {
  return has ? (
    <CheckRounded aria-hidden="true" sx={{ fontSize: 18, color: 'primary.main', flexShrink: 0 }} />
  ) : (
    <CloseRounded aria-hidden="true" sx={{ fontSize: 18, color: 'error.main', flexShrink: 0 }} />
  );
}

/** Botsmith against a typical chatbot platform that needs its own AI provider account. */
export function ComparisonTable() {
  return (
    <Box sx={{ borderRadius: 4, border: 1, borderColor: 'divider', overflow: 'hidden', bgcolor: 'common.white' }}>
      <Table
        aria-label="Botsmith compared with other chatbot platforms"
        sx={{ '& td, & th': { px: { xs: 1.5, sm: 2.5 } } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>
              <Box
                component="span"
                sx={{
                  position: 'absolute',
                  width: '1px',
                  height: '1px',
                  overflow: 'hidden',
                  clip: 'rect(0 0 0 0)',
                  whiteSpace: 'nowrap',
                }}
              >
                Feature
              </Box>
            </TableCell>
            <TableCell
              sx={(t) => ({ fontWeight: 800, color: 'primary.dark', bgcolor: alpha(t.palette.primary.main, 0.08) })}
            >
              Botsmith
            </TableCell>
            <TableCell sx={{ fontWeight: 700, color: 'text.secondary' }}>Other platforms</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {comparison.map((row) => (
            <TableRow key={row.feature} sx={{ '&:last-of-type td, &:last-of-type th': { borderBottom: 0 } }}>
              <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                {row.feature}
              </TableCell>
              <TableCell sx={(t) => ({ bgcolor: alpha(t.palette.primary.main, 0.04) })}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, fontWeight: 600 }}>
                  <Mark has={row.botsmithHas} />
                  {row.botsmith}
                </Box>
              </TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
                  <Mark has={row.othersHave} />
                  {row.others}
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
