import CloseRounded from '@mui/icons-material/CloseRounded';
import MenuRounded from '@mui/icons-material/MenuRounded';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import { alpha } from '@mui/material/styles';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from '../../layout/BrandLogo';
import { BELOW_768, navLinks, type NavLink } from './landingContent';
import { trackCta } from './trackCta';

const MENU_ID = 'landing-mobile-menu';
const onMobile = `@media ${BELOW_768}`;

function linkProps(link: NavLink, onNavigate?: () => void) {
  const onClick = () => {
    if (link.cta) trackCta(link.cta);
    onNavigate?.();
  };
  return link.route ? { component: RouterLink, to: link.href, onClick } : { href: link.href, onClick };
}

/** Top bar: logo, anchor links, Sign In / Sign Up; a hamburger dropdown below 768 px. */
export function NavBar() {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const [info, howTo, pricing, signUp, signIn] = navLinks;

  return (
    <AppBar
      position="sticky"
      sx={(t) => ({
        bgcolor: alpha(t.palette.common.white, 0.86),
        backdropFilter: 'saturate(180%) blur(12px)',
        borderBottom: `1px solid ${t.palette.divider}`,
      })}
    >
      <Container maxWidth="lg">
        <Toolbar disableGutters sx={{ minHeight: { xs: 64, md: 72 }, gap: 2 }}>
          <Link
            href="/login"
            target="_blank"
            rel="noopener"
            aria-label="Botsmith, sign in (opens in a new tab)"
            underline="none"
            sx={{ display: 'inline-flex', mr: 'auto' }}
          >
            <BrandLogo size={34} />
          </Link>

          <Stack
            component="nav"
            aria-label="Main"
            direction="row"
            spacing={0.5}
            sx={{ alignItems: 'center', [onMobile]: { display: 'none' } }}
          >
            {[info, howTo, pricing].map((link) => (
              <Button
                key={link.href}
                {...linkProps(link)}
                color="inherit"
                sx={{ color: 'text.secondary', fontWeight: 500 }}
              >
                {link.label}
              </Button>
            ))}
            <Box sx={{ width: 12 }} />
            <Button {...linkProps(signIn)} variant="text" sx={{ fontWeight: 600 }}>
              {signIn.label}
            </Button>
            <Button {...linkProps(signUp)} variant="contained">
              {signUp.label}
            </Button>
          </Stack>

          <IconButton
            aria-label={open ? 'Close menu' : 'Open menu'}
            aria-expanded={open}
            aria-controls={MENU_ID}
            onClick={() => setOpen((value) => !value)}
            sx={{ display: 'none', [onMobile]: { display: 'inline-flex' }, color: 'text.primary' }}
          >
            {open ? <CloseRounded /> : <MenuRounded />}
          </IconButton>
        </Toolbar>
      </Container>

      <Collapse in={open} unmountOnExit sx={{ [`@media not all and ${BELOW_768}`]: { display: 'none' } }}>
        <Box
          component="nav"
          id={MENU_ID}
          aria-label="Menu"
          sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'common.white', px: 2, pt: 1, pb: 2 }}
        >
          <Stack spacing={0.5}>
            {[info, howTo, pricing, signUp, signIn].map((link) => (
              <Button
                key={link.href}
                {...linkProps(link, close)}
                color="inherit"
                fullWidth
                sx={{ justifyContent: 'flex-start', py: 1.25, fontSize: '1rem', borderRadius: 2 }}
              >
                {link.label}
              </Button>
            ))}
          </Stack>
        </Box>
      </Collapse>
    </AppBar>
  );
}
