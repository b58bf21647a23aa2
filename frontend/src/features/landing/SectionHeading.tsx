import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export interface SectionHeadingProps {
  /** Id of the heading, for the section's aria-labelledby. */
  id: string;
  overline: string;
  title: string;
  intro?: string;
  align?: 'center' | 'left';
}

/** The overline, h2 and intro paragraph that open each landing section. */
export function SectionHeading({ id, overline, title, intro, align = 'center' }: SectionHeadingProps) {
  return (
    <Box sx={{ textAlign: align, maxWidth: align === 'center' ? 720 : 'none', mx: align === 'center' ? 'auto' : 0 }}>
      <Typography variant="overline" component="p" sx={{ color: 'primary.main', mb: 1 }}>
        {overline}
      </Typography>
      <Typography id={id} variant="h2" sx={{ mb: intro ? 2 : 0 }}>
        {title}
      </Typography>
      {intro && (
        <Typography variant="subtitle1" component="p">
          {intro}
        </Typography>
      )}
    </Box>
  );
}
