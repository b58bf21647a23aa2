import Box from '@mui/material/Box';
import GlobalStyles from '@mui/material/GlobalStyles';
import { usePageTitle } from '../../layout/usePageTitle';
import { ExamplesSection } from './ExamplesSection';
import { FaqSection } from './FaqSection';
import { HeroSection } from './HeroSection';
import { HowToSection } from './HowToSection';
import { InfoSection } from './InfoSection';
import { LandingFooter } from './LandingFooter';
import { DEMO_BOT_ID } from './landingContent';
import { NavBar } from './NavBar';
import { PricingSection } from './PricingSection';
import { useWidgetScript } from './useWidgetScript';

/** / — the marketing page, in the brief's order of sections, with our own bot in the corner. */
export function LandingPage() {
  usePageTitle(null);
  useWidgetScript(DEMO_BOT_ID);

  return (
    <>
      <GlobalStyles styles={{ body: { backgroundColor: '#ffffff' } }} />
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
      <NavBar />
      <Box component="main" id="main">
        <HeroSection />
        <ExamplesSection />
        <InfoSection />
        <HowToSection />
        <PricingSection />
        <FaqSection />
      </Box>
      <LandingFooter />
    </>
  );
}
