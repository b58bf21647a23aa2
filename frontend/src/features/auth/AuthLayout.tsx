import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from '../../layout/BrandLogo';
import { usePageTitle } from '../../layout/usePageTitle';
import { brand } from '../../theme/theme';
import { FREE_CREDITS, STARTING_PRICE } from '../../layout/prices';

export interface AuthLayoutProps {
  /** The page's h1, also the browser tab title. */
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links under the card ('Already a member? Log in', ...). */
  footer?: ReactNode;
}

const SELLING_POINTS = [
  `${FREE_CREDITS} in free credits when you join`,
  `${STARTING_PRICE} a message, no monthly minimum`,
  'Style your bot and embed it with one line of code',
];

/**
 * The frame of every account screen: a centred card with the brand, and on wide screens a brand
 * panel beside it. One column on phones.
 */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  usePageTitle(title);
  // One logo on the page at a time: two inline SVG logos would share their gradient's id.
  const wide = useMediaQuery(useTheme().breakpoints.up('md'), { noSsr: true });
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: 'minmax(320px, 5fr) 7fr' },
        bgcolor: 'background.default',
      }}
    >
      {wide && (
        <Box
          sx={{
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'space-between',
            p: 6,
            color: 'common.white',
            background: brand.gradient,
          }}
        >
          <Box
            component={RouterLink}
            to="/"
            aria-label="Botsmith home"
            sx={{ display: 'inline-flex', textDecoration: 'none', alignSelf: 'flex-start' }}
          >
            <BrandLogo tone="light" size={36} />
          </Box>
          <Box>
            <Typography variant="h2" component="p" sx={{ color: 'common.white', mb: 3, maxWidth: 420 }}>
              Build smarter bots, no code needed.
            </Typography>
            <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {SELLING_POINTS.map((point) => (
                <Stack component="li" key={point} direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                  <CheckCircleRounded fontSize="small" aria-hidden sx={{ color: brand.botGreen }} />
                  <Typography variant="body1" sx={{ color: 'common.white' }}>
                    {point}
                  </Typography>
                </Stack>
              ))}
            </Stack>
          </Box>
          <Typography variant="body2" sx={{ color: brand.onDark.muted }}>
            © {new Date().getFullYear()} Botsmith
          </Typography>
        </Box>
      )}

      <Box
        sx={{
          display: 'flex',
          alignItems: { xs: 'flex-start', sm: 'center' },
          justifyContent: 'center',
          px: { xs: 2, sm: 4 },
          py: { xs: 4, sm: 6 },
        }}
      >
        <Box sx={{ width: '100%', maxWidth: 440 }}>
          {!wide && (
            <Box sx={{ display: 'flex', justifyContent: 'center', mb: 3 }}>
              <Box
                component={RouterLink}
                to="/"
                aria-label="Botsmith home"
                sx={{ display: 'inline-flex', textDecoration: 'none' }}
              >
                <BrandLogo size={34} />
              </Box>
            </Box>
          )}
          <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4.5 }, boxShadow: brand.raisedShadow }}>
            <Typography variant="h3" component="h1" sx={{ mb: subtitle ? 1 : 3 }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="body2" color="textSecondary" sx={{ mb: 3 }}>
                {subtitle}
              </Typography>
            )}
            {children}
          </Paper>
          {footer && (
            <Stack spacing={1} sx={{ mt: 3, alignItems: 'center', textAlign: 'center' }}>
              {footer}
            </Stack>
          )}
        </Box>
      </Box>
    </Box>
  );
}
