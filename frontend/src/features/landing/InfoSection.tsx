import CheckRounded from '@mui/icons-material/CheckRounded';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DemoMedia } from './DemoMedia';
import { LandingSection } from './LandingSection';
import { SectionHeading } from './SectionHeading';

const points = [
  {
    title: 'No code, no setup',
    text: 'Name your bot, give it a prompt or a PDF, pick its colors. Paste one line on your site and it is live.',
  },
  {
    title: 'No AI account to manage',
    text: 'Bots run on ChatGPT models and we host the key, so there is nothing to sign up for elsewhere.',
  },
  {
    title: 'Pay only for answers',
    text: 'Each answered message costs a few cents. No seats, no monthly minimum, and a budget cap per bot.',
  },
];

/** #info: what the product is, with the demo. */
export function InfoSection() {
  return (
    <LandingSection id="info" headingId="info-heading" tinted maxWidth="lg">
      <Box
        sx={{
          display: 'grid',
          gap: { xs: 5, md: 8 },
          alignItems: 'center',
          gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' },
        }}
      >
        <Box>
          <SectionHeading
            id="info-heading"
            overline="The product"
            title="What is Botsmith?"
            align="left"
            intro="Botsmith is a no-code builder for AI chatbots. Create a bot for support, sales or onboarding, make it look like part of your website, and embed it with a single script tag."
          />
          <Stack component="ul" spacing={2.5} sx={{ listStyle: 'none', p: 0, m: 0, mt: 4 }}>
            {points.map((point) => (
              <Box component="li" key={point.title} sx={{ display: 'flex', gap: 1.5 }}>
                <Box
                  sx={{
                    flexShrink: 0,
                    width: 28,
                    height: 28,
                    borderRadius: '50%',
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: 'primary.main',
                    color: 'common.white',
                    mt: 0.25,
                  }}
                >
                  <CheckRounded sx={{ fontSize: 18 }} />
                </Box>
                <Box>
                  <Typography variant="h6" component="h3">
                    {point.title}
                  </Typography>
                  <Typography sx={{ color: 'text.secondary' }}>{point.text}</Typography>
                </Box>
              </Box>
            ))}
          </Stack>
        </Box>
        <DemoMedia />
      </Box>
    </LandingSection>
  );
}
