import Box from '@mui/material/Box';
import Container, { type ContainerProps } from '@mui/material/Container';
import type { ReactNode } from 'react';
import { brand } from '../../theme/theme';

export interface LandingSectionProps {
  /** The anchor the navigation links to (#info, #pricing…). */
  id: string;
  /** Id of the section's heading, which names it. */
  headingId: string;
  /** On the light brand tint, setting it apart from the white sections around it. */
  tinted?: boolean;
  maxWidth: ContainerProps['maxWidth'];
  children: ReactNode;
}

/** A band of the landing page below the hero: the same spacing top and bottom, its content centred. */
export function LandingSection({ id, headingId, tinted = false, maxWidth, children }: LandingSectionProps) {
  return (
    <Box
      component="section"
      id={id}
      aria-labelledby={headingId}
      sx={{ py: { xs: 7, md: 11 }, ...(tinted && { bgcolor: brand.mist }) }}
    >
      <Container maxWidth={maxWidth}>{children}</Container>
    </Box>
  );
}
