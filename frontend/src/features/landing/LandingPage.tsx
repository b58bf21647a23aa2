import Box from '@mui/material/Box';
import GlobalStyles from '@mui/material/GlobalStyles';
import { lazy, Suspense } from 'react';
import { usePageTitle } from '../../layout/usePageTitle';
import { ExamplesSection } from './ExamplesSection';
import { HeroSection } from './HeroSection';
import { HydrateWhenNear } from './HydrateWhenNear';
import { DEMO_BOT_ID } from './landingContent';
import { NavBar } from './NavBar';
import { useWidgetScript } from './useWidgetScript';

const LandingSections = lazy(() => import('./LandingSections').then((m) => ({ default: m.LandingSections })));
const LandingFooter = lazy(() => import('./LandingFooter').then((m) => ({ default: m.LandingFooter })));

/** / — the marketing page, its sections in order (docs/product.md#landing-page), with our own bot in the corner. */
export function LandingPage() {
  usePageTitle(null);
  useWidgetScript(DEMO_BOT_ID);

  return (
    <>
      <GlobalStyles styles={(t) => ({ body: { backgroundColor: t.palette.background.paper } })} />
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 2000,
          px: 2,
          py: 1,
          borderRadius: 2,
          bgcolor: 'primary.main',
          color: 'common.white',
          fontWeight: 600,
          '&:focus': { top: 8 },
        }}
      >
        Skip to content
      </Box>
      {/*
        Each part of the prerendered page is its own Suspense boundary: React then hydrates them
        one after the other in small slices instead of in one long task on a slow phone. The parts
        below the first screen hydrate only when they come near it.
      */}
      <Suspense fallback={null}>
        <NavBar />
      </Suspense>
      <Box component="main" id="main">
        <Suspense fallback={null}>
          <HeroSection />
        </Suspense>
        <Suspense fallback={null}>
          <ExamplesSection />
        </Suspense>
        {/* The placeholder keeps the hero where it is while the rest of the page loads. */}
        <HydrateWhenNear name="sections" fallback={<Box sx={{ minHeight: '100vh' }} />}>
          <LandingSections />
        </HydrateWhenNear>
      </Box>
      <HydrateWhenNear name="footer">
        <LandingFooter />
      </HydrateWhenNear>
    </>
  );
}
