import { brand } from '../../theme/theme';
import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import EditNoteRounded from '@mui/icons-material/EditNoteRounded';
import InsightsRounded from '@mui/icons-material/InsightsRounded';
import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useSyncExternalStore, type ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { steps } from './landingContent';
import { LandingSection } from './LandingSection';
import { SectionHeading } from './SectionHeading';
import { trackCta } from './trackCta';

const stepIcons: ReactElement[] = [<SmartToyOutlined />, <PaletteOutlined />, <EditNoteRounded />, <InsightsRounded />];

const noSubscription = () => () => {};

/**
 * What the Deploy tab gives an owner (with an example bot id). The page is prerendered at build
 * time, where there is no origin: the prerender and the hydration show a relative address, the
 * browser's origin follows right after.
 */
function useEmbedSnippet(): string {
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => '',
  );
  return `<script src="${origin}/widget.js" data-bot-id="42" async></script>`;
}

/** #how-to: the four steps from sign-up to a monitored bot, and the one-line deploy. */
export function HowToSection() {
  const embedSnippet = useEmbedSnippet();
  return (
    <LandingSection id="how-to" headingId="how-to-heading" maxWidth="lg">
      <SectionHeading
        id="how-to-heading"
        overline="How to use"
        title="Build and Launch a Custom Bot in Minutes"
        intro="Everything happens in one dashboard. No developers, no servers, no AI accounts."
      />

      <Box
        component="ol"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          mt: { xs: 5, md: 7 },
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' },
        }}
      >
        {steps.map((step, index) => (
          <Box
            component="li"
            key={step.title}
            sx={(t) => ({
              position: 'relative',
              p: 3,
              borderRadius: 4,
              border: `1px solid ${t.palette.divider}`,
              bgcolor: 'common.white',
              transition: 'transform 200ms, box-shadow 200ms',
              '&:hover': {
                transform: 'translateY(-4px)',
                boxShadow: `0 18px 40px -24px ${alpha(t.palette.common.black, 0.3)}`,
              },
            })}
          >
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
              <Box
                sx={(t) => ({
                  width: 48,
                  height: 48,
                  borderRadius: 3,
                  display: 'grid',
                  placeItems: 'center',
                  color: 'primary.main',
                  bgcolor: alpha(t.palette.primary.main, 0.1),
                })}
              >
                {stepIcons[index]}
              </Box>
              <Typography component="span" sx={{ fontWeight: 800, fontSize: '0.875rem', color: 'text.secondary' }}>
                Step {index + 1}
              </Typography>
            </Box>
            <Typography variant="h5" component="h3" sx={{ mb: 1 }}>
              {step.title}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {step.text}
            </Typography>
          </Box>
        ))}
      </Box>

      <Box
        aria-labelledby="deploy-heading"
        component="article"
        sx={(t) => ({
          mt: { xs: 5, md: 7 },
          p: { xs: 3, md: 6 },
          borderRadius: 5,
          color: 'common.white',
          background: `linear-gradient(135deg, ${t.palette.text.primary} 0%, ${brand.deepTeal} 100%)`,
          display: 'grid',
          gap: { xs: 3, md: 6 },
          alignItems: 'center',
          gridTemplateColumns: { xs: '1fr', md: '5fr 6fr' },
        })}
      >
        <Box>
          <Typography id="deploy-heading" variant="h3" component="h3" sx={{ mb: 1.5 }}>
            Deploy Anywhere in Seconds
          </Typography>
          <Typography sx={{ color: brand.onDark.text, mb: 3 }}>
            Copy one line from the Deploy tab and paste it into any website where you can add a script, from
            hand-written HTML to your site builder. Lock the bot to your domain so no one else can borrow it.
          </Typography>
          <Link
            component={RouterLink}
            to="/signup"
            onClick={() => trackCta('Dashboard Overview: Join and Deploy')}
            sx={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 0.75,
              color: brand.onDark.accent,
              fontWeight: 700,
              fontSize: '1.0625rem',
            }}
          >
            Join and Deploy
            <ArrowForwardRounded fontSize="small" />
          </Link>
        </Box>
        <Box
          sx={{
            borderRadius: 3,
            bgcolor: brand.onDark.well,
            border: `1px solid ${brand.onDark.hairline}`,
            overflow: 'hidden',
          }}
        >
          <Box
            sx={{
              display: 'flex',
              gap: 0.75,
              px: 2,
              py: 1.25,
              borderBottom: `1px solid ${brand.onDark.hairline}`,
              '& i': { width: 10, height: 10, borderRadius: '50%', bgcolor: brand.onDark.dot },
            }}
            aria-hidden="true"
          >
            <i />
            <i />
            <i />
          </Box>
          <Box
            component="pre"
            aria-label="Embed code"
            sx={{
              m: 0,
              p: { xs: 2, md: 3 },
              overflowX: 'auto',
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
              fontSize: { xs: '0.8125rem', md: '0.9375rem' },
              lineHeight: 1.7,
              color: brand.onDark.code,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
          >
            <code>{embedSnippet}</code>
          </Box>
        </Box>
      </Box>
    </LandingSection>
  );
}
