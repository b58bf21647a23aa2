import { brand } from '../../theme/theme';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from '../../layout/BrandLogo';
import { SUPPORT_EMAIL } from '../../layout/brand';
import { useCaseLinks } from './landingContent';
import { trackCta } from './trackCta';

const linkSx = { color: brand.onDark.muted, fontWeight: 400, '&:hover': { color: 'common.white' } } as const;

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="nav" aria-label={title}>
      <Typography component="h2" sx={{ fontWeight: 700, fontSize: '0.9375rem', color: 'common.white', mb: 2 }}>
        {title}
      </Typography>
      <Stack component="ul" spacing={1.25} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {children}
      </Stack>
    </Box>
  );
}

/** Use cases, legal pages, support e-mail, account links and the copyright line. */
export function LandingFooter() {
  return (
    <Box component="footer" sx={{ bgcolor: 'text.primary', color: brand.onDark.muted, pt: { xs: 7, md: 9 }, pb: 4 }}>
      <Container maxWidth="lg">
        <Box
          sx={{
            display: 'grid',
            gap: { xs: 4, md: 6 },
            gridTemplateColumns: { xs: '1fr 1fr', md: '2fr 1.4fr 1fr 1fr' },
            '& > :first-of-type': { gridColumn: { xs: '1 / -1', md: 'auto' } },
          }}
        >
          <Box>
            <BrandLogo tone="light" />
            <Typography sx={{ mt: 2, maxWidth: 320, fontSize: '0.9375rem' }}>
              The no-code way to create, style and launch AI chatbots on your website. Pay only for answered messages.
            </Typography>
          </Box>

          <Column title="Use cases">
            {useCaseLinks.map((link) => (
              <li key={link.href}>
                <Link href={link.href} target="_blank" rel="noopener noreferrer" sx={linkSx}>
                  {link.label}
                </Link>
              </li>
            ))}
          </Column>

          <Column title="Company">
            <li>
              <Link component={RouterLink} to="/privacy-policy" sx={linkSx}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link component={RouterLink} to="/terms-of-service" sx={linkSx}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link href={`mailto:${SUPPORT_EMAIL}`} sx={linkSx}>
                {SUPPORT_EMAIL}
              </Link>
            </li>
          </Column>

          <Column title="Account">
            <li>
              <Link component={RouterLink} to="/signup" onClick={() => trackCta('Footer Sign Up')} sx={linkSx}>
                Sign Up
              </Link>
            </li>
            <li>
              <Link component={RouterLink} to="/signin" sx={linkSx}>
                Sign In
              </Link>
            </li>
          </Column>
        </Box>

        <Box
          sx={{ mt: { xs: 6, md: 8 }, pt: 3, borderTop: `1px solid ${brand.onDark.hairline}`, fontSize: '0.875rem' }}
        >
          © {new Date().getFullYear()} Botsmith
        </Box>
      </Container>
    </Box>
  );
}
