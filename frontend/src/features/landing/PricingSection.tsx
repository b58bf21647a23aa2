import CheckRounded from '@mui/icons-material/CheckRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router-dom';
import { ComparisonTable } from './ComparisonTable';
import { LandingSection } from './LandingSection';
import { SectionHeading } from './SectionHeading';
import { trackCta } from './trackCta';
import {
  BILLING_DAY,
  FREE_CREDITS,
  FREE_MESSAGES,
  HIGHER_PRICES,
  PRICE_STEP,
  STARTING_PRICE,
  STARTING_TIER_LABEL,
} from '../../layout/prices';

const included = [
  'No monthly minimum, no seats',
  `Billed monthly on the ${BILLING_DAY}`,
  'A monthly budget cap for every bot',
  'Hosted model key and all four models',
  'No charge for answers the bot could not give',
];

/** #pricing: the per-message price, the free credits and the comparison table. */
export function PricingSection() {
  return (
    <LandingSection id="pricing" headingId="pricing-heading" tinted maxWidth="lg">
      <SectionHeading
        id="pricing-heading"
        overline="Pricing"
        title="Pay for answers, not for seats"
        intro="One simple price per answered message, and nothing for an answer the bot could not give. Your model, hosting and billing are all included."
      />

      <Box
        sx={{
          mt: { xs: 5, md: 7 },
          display: 'grid',
          gap: { xs: 3, md: 4 },
          alignItems: 'start',
          gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' },
        }}
      >
        <Box
          sx={(t) => ({
            p: { xs: 3, md: 4 },
            borderRadius: 5,
            bgcolor: 'common.white',
            border: `2px solid ${t.palette.primary.main}`,
            boxShadow: `0 30px 60px -30px ${alpha(t.palette.primary.main, 0.45)}`,
          })}
        >
          <Typography variant="overline" component="p" sx={{ color: 'primary.main' }}>
            Pay as you go
          </Typography>
          <Typography component="p" sx={{ mb: 1 }}>
            <Box
              component="span"
              sx={{
                fontSize: { xs: '3.25rem', md: '4rem' },
                fontWeight: 800,
                lineHeight: 1,
                letterSpacing: '-0.04em',
              }}
            >
              {STARTING_PRICE}
            </Box>{' '}
            <Box component="span" sx={{ fontSize: '1.25rem', fontWeight: 600, color: 'text.secondary', ml: 0.5 }}>
              a message
            </Box>
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3 }}>
            {`With ${STARTING_TIER_LABEL}. Larger models cost ${PRICE_STEP} more per step up in size: ${HIGHER_PRICES}.`}
          </Typography>

          <Box
            sx={(t) => ({
              display: 'flex',
              alignItems: 'center',
              gap: 1.5,
              p: 2,
              mb: 3,
              borderRadius: 3,
              bgcolor: alpha(t.palette.primary.main, 0.08),
            })}
          >
            <Box
              aria-hidden="true"
              sx={{
                fontSize: '1.5rem',
                fontWeight: 800,
                color: 'primary.dark',
                lineHeight: 1,
                minWidth: 48,
                textAlign: 'center',
              }}
            >
              {FREE_CREDITS}
            </Box>
            <Box>
              <Typography sx={{ fontWeight: 700 }}>{FREE_CREDITS} in free credits</Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                About {FREE_MESSAGES} messages to start, depending on the model.
              </Typography>
            </Box>
          </Box>

          <Stack component="ul" spacing={1.25} sx={{ listStyle: 'none', p: 0, m: 0, mb: 4 }}>
            {included.map((item) => (
              <Box component="li" key={item} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <CheckRounded fontSize="small" sx={{ color: 'primary.main' }} />
                <Typography variant="body2">{item}</Typography>
              </Box>
            ))}
          </Stack>

          <Button
            component={RouterLink}
            to="/signup"
            variant="contained"
            size="large"
            fullWidth
            onClick={() => trackCta('Pricing Join Now')}
          >
            Join Now
          </Button>
        </Box>

        <Box>
          <ComparisonTable />
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 2, px: 1 }}>
            Other platforms: a typical chatbot builder at 5¢ a message, plus a separate $20+ bill from the AI model
            provider for the key you bring.
          </Typography>
        </Box>
      </Box>
    </LandingSection>
  );
}
