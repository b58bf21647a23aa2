import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { faqs } from './landingContent';
import { LandingSection } from './LandingSection';
import { SectionHeading } from './SectionHeading';

/** Six questions; one answer open at a time, a click on the open one closes it. */
export function FaqSection() {
  const [open, setOpen] = useState<number | null>(null);

  return (
    <LandingSection id="faq" headingId="faq-heading" maxWidth="md">
      <SectionHeading id="faq-heading" overline="FAQ" title="Questions, answered" />
      <Box sx={{ mt: { xs: 4, md: 6 } }}>
        {faqs.map((faq, index) => (
          <Accordion
            key={faq.question}
            expanded={open === index}
            onChange={() => setOpen((current) => (current === index ? null : index))}
          >
            <AccordionSummary
              expandIcon={<ExpandMoreRounded />}
              id={`faq-question-${index}`}
              aria-controls={`faq-answer-${index}`}
              sx={{ px: { xs: 2, sm: 3 }, py: 0.5, '& .MuiAccordionSummary-content': { my: 2 } }}
            >
              <Typography sx={{ fontWeight: 700, fontSize: { xs: '1rem', sm: '1.0625rem' } }}>
                {faq.question}
              </Typography>
            </AccordionSummary>
            <AccordionDetails sx={{ px: { xs: 2, sm: 3 }, pt: 0, pb: 3 }}>
              <Typography sx={{ color: 'text.secondary' }}>{faq.answer}</Typography>
            </AccordionDetails>
          </Accordion>
        ))}
      </Box>
    </LandingSection>
  );
}
