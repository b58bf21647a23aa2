import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { SimplePage } from '../../layout/SimplePage';

export interface LegalSection {
  heading: string;
  body: ReactNode[];
}

export interface LegalPageProps {
  title: string;
  lastUpdated: string;
  intro: ReactNode;
  sections: LegalSection[];
}

/** Layout of the privacy policy and the terms: numbered sections, readable line length. */
export function LegalPage({ title, lastUpdated, intro, sections }: LegalPageProps) {
  return (
    <SimplePage title={title} maxWidth="md">
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3 }}>
        Last updated: {lastUpdated}
      </Typography>
      <Typography component="div" sx={{ mb: 4, fontSize: '1.0625rem' }}>
        {intro}
      </Typography>
      <Box component="article" sx={{ '& p': { mb: 2 }, '& li': { mb: 1 }, maxWidth: 760 }}>
        {sections.map((section, index) => (
          <Box component="section" key={section.heading} sx={{ mb: 4 }}>
            <Typography variant="h4" component="h2" sx={{ mb: 1.5 }}>
              {index + 1}. {section.heading}
            </Typography>
            {section.body.map((block, blockIndex) =>
              typeof block === 'string' ? (
                <Typography key={blockIndex} component="p">
                  {block}
                </Typography>
              ) : (
                <Box key={blockIndex}>{block}</Box>
              ),
            )}
          </Box>
        ))}
      </Box>
      <Box
        component="nav"
        aria-label="Legal"
        sx={{ display: 'flex', gap: 3, pt: 3, borderTop: 1, borderColor: 'divider' }}
      >
        <Link component={RouterLink} to="/">
          Home
        </Link>
        <Link component={RouterLink} to="/privacy-policy">
          Privacy Policy
        </Link>
        <Link component={RouterLink} to="/terms-of-service">
          Terms of Service
        </Link>
      </Box>
    </SimplePage>
  );
}
