import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandLogo } from './BrandLogo';
import { usePageTitle } from './usePageTitle';

export interface SimplePageProps {
  title: string;
  children?: ReactNode;
  /** Width of the content column. */
  maxWidth?: 'xs' | 'sm' | 'md';
}

/** A plain page: the logo linking home, a heading and whatever the page puts below it. */
export function SimplePage({ title, children, maxWidth = 'sm' }: SimplePageProps) {
  usePageTitle(title);
  return (
    <Box component="main" sx={{ minHeight: '100vh', py: { xs: 4, md: 8 } }}>
      <Container maxWidth={maxWidth}>
        <Box
          component={RouterLink}
          to="/"
          aria-label="Botsmith home"
          sx={{ display: 'inline-flex', mb: 4, textDecoration: 'none' }}
        >
          <BrandLogo />
        </Box>
        <Typography variant="h2" component="h1" sx={{ mb: 3 }}>
          {title}
        </Typography>
        {children}
      </Container>
    </Box>
  );
}
