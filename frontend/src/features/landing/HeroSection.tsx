import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import CheckRounded from '@mui/icons-material/CheckRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { brand } from '../../theme/theme';
import { PRODUCT_NAME } from '../../layout/brand';
import { trackCta } from './trackCta';
import { FREE_CREDITS, STARTING_PRICE } from '../../layout/prices';

const promises = ['No code', 'No API key needed', 'No monthly minimum'];

/** The first screen: what the product does and the main call to action. */
export function HeroSection() {
  return (
    <Box
      component="section"
      aria-labelledby="hero-heading"
      sx={{
        position: 'relative',
        overflow: 'hidden',
        pt: { xs: 6, md: 9 },
        pb: { xs: 4, md: 6 },
        background: `radial-gradient(60% 55% at 50% 0%, ${brand.mist} 0%, transparent 70%)`,
      }}
    >
      <Container maxWidth="md" sx={{ textAlign: 'center' }}>
        <Box
          sx={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 1,
            px: 1.5,
            py: 0.5,
            mb: 3,
            borderRadius: 999,
            border: 1,
            borderColor: 'divider',
            bgcolor: 'common.white',
            color: 'text.secondary',
            fontSize: '0.875rem',
            fontWeight: 500,
          }}
        >
          <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: brand.botGreen }} />
          {`AI chatbots for your website, from ${STARTING_PRICE} a reply`}
        </Box>

        <Typography id="hero-heading" variant="h1" sx={{ mb: 2.5 }}>
          Build Smarter Bots with{' '}
          <Box
            component="span"
            sx={{
              display: 'inline-block',
              background: brand.gradient,
              backgroundClip: 'text',
              WebkitBackgroundClip: 'text',
              color: 'primary.main',
              WebkitTextFillColor: 'transparent',
              pb: '0.06em',
            }}
          >
            {PRODUCT_NAME}
          </Box>
        </Typography>

        <Typography
          variant="subtitle1"
          component="p"
          sx={{ fontSize: { xs: '1.125rem', md: '1.3125rem' }, maxWidth: 620, mx: 'auto', mb: 4 }}
        >
          The easiest way to create, style, and launch AI chatbots — no code needed.
        </Typography>

        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center', mb: 3 }}>
          <Tooltip title={`Join now for free and receive a ${FREE_CREDITS} credit for your bots!`} describeChild>
            <Button
              component={RouterLink}
              to="/signup"
              variant="contained"
              size="large"
              endIcon={<ArrowForwardRounded />}
              onClick={() => trackCta('Hero Get Started')}
            >
              Get Started
            </Button>
          </Tooltip>
          <Button href="#how-to" variant="outlined" size="large" color="inherit" sx={{ borderColor: 'divider' }}>
            See how it works
          </Button>
        </Stack>

        <Stack
          component="ul"
          direction="row"
          sx={{ listStyle: 'none', p: 0, m: 0, justifyContent: 'center', flexWrap: 'wrap', columnGap: 3, rowGap: 1 }}
        >
          {promises.map((promise) => (
            <Box
              component="li"
              key={promise}
              sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary', fontSize: '0.9375rem' }}
            >
              <CheckRounded fontSize="small" sx={{ color: 'primary.main' }} />
              {promise}
            </Box>
          ))}
        </Stack>
      </Container>
    </Box>
  );
}
