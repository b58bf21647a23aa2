import TouchAppOutlined from '@mui/icons-material/TouchAppOutlined';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useRef, useState } from 'react';
import { ExampleCard } from './ExampleCard';
import { AT_MOST_768, examples, type Example } from './landingContent';
import { SectionHeading } from './SectionHeading';
import { useFanOut } from './useFanOut';

// The viewer (a modal dialog) is only downloaded when a visitor first opens a card.
const ExampleViewer = lazy(() => import('./ExampleViewer').then((m) => ({ default: m.ExampleViewer })));

/** 'Fits Any Brand': five differently styled example bots, fanned out like a hand of cards. */
export function ExamplesSection() {
  const fanRef = useRef<HTMLDivElement>(null);
  const fanned = useFanOut(fanRef);
  const [raised, setRaised] = useState<number | null>(null);
  const [selected, setSelected] = useState<Example | null>(null);
  const [viewerUsed, setViewerUsed] = useState(false);

  return (
    <Box
      component="section"
      aria-labelledby="examples-heading"
      sx={{ pt: { xs: 4, md: 5 }, pb: { xs: 7, md: 10 }, overflow: 'hidden' }}
    >
      <Container maxWidth="lg">
        <SectionHeading
          id="examples-heading"
          overline="Examples"
          title="Fits Any Brand"
          intro="Your bot doesn’t have to look like ours. Give it your colors, your voice and your personality, from a playful storefront to a dark-mode developer blog."
        />

        <Box
          ref={fanRef}
          data-testid="example-fan"
          data-fanned={fanned}
          sx={{
            position: 'relative',
            mx: 'auto',
            mt: { xs: 4, md: 6 },
            maxWidth: 960,
            height: { xs: 260, sm: 350, md: 410 },
            '--fan-card': { xs: '128px', sm: '180px', md: '220px' },
            '--fan-spread': { xs: '44px', sm: '120px', md: '190px' },
          }}
          onMouseLeave={() => setRaised(null)}
        >
          {examples.map((example, index) => (
            <ExampleCard
              key={example.slug}
              example={example}
              offset={index - (examples.length - 1) / 2}
              fanned={fanned}
              raised={raised === index}
              onRaise={(isRaised) => setRaised(isRaised ? index : (current) => (current === index ? null : current))}
              onOpen={() => {
                setViewerUsed(true);
                setSelected(example);
              }}
            />
          ))}
        </Box>

        <Typography
          sx={{
            display: 'none',
            [`@media ${AT_MOST_768}`]: { display: 'flex' },
            alignItems: 'center',
            justifyContent: 'center',
            gap: 0.75,
            color: 'text.secondary',
            fontSize: '0.9375rem',
            mt: 1,
          }}
        >
          <TouchAppOutlined fontSize="small" aria-hidden="true" />
          Tap a card to view it
        </Typography>

        <Typography
          component="p"
          sx={{
            textAlign: 'center',
            fontWeight: 600,
            fontSize: { xs: '1.0625rem', md: '1.25rem' },
            mt: { xs: 3, md: 4 },
          }}
        >
          Total control over design, color, greeting, tone, and feel.
        </Typography>
      </Container>

      {viewerUsed && (
        <Suspense fallback={null}>
          <ExampleViewer example={selected} onClose={() => setSelected(null)} />
        </Suspense>
      )}
    </Box>
  );
}
