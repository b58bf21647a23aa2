import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { PRODUCT_NAME } from './brand';

export interface BrandLogoProps {
  /** Height of the mark in px; the word mark scales with it. */
  size?: number;
  /** Show the word "Botsmith" beside the mark. */
  withWordmark?: boolean;
  /** Colour of the word mark; the mark keeps its brand gradient. */
  tone?: 'dark' | 'light';
}

/** The Botsmith mark (a smiling chat bubble) and word mark, drawn inline so it costs no request. */
export function BrandLogo({ size = 32, withWordmark = true, tone = 'dark' }: BrandLogoProps) {
  const { palette } = useTheme();
  const face = palette.primary.contrastText;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box component="svg" viewBox="0 0 32 32" aria-hidden="true" sx={{ width: size, height: size, flexShrink: 0 }}>
        <defs>
          <linearGradient id="botsmith-logo-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor={palette.primary.light} />
            <stop offset="1" stopColor={palette.primary.main} />
          </linearGradient>
        </defs>
        <path
          d="M6 3h20a4 4 0 0 1 4 4v13a4 4 0 0 1-4 4H14l-6.5 5.2c-.7.5-1.5 0-1.5-.8V24a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4z"
          fill="url(#botsmith-logo-gradient)"
        />
        <circle cx="11.5" cy="13.5" r="2.3" fill={face} />
        <circle cx="20.5" cy="13.5" r="2.3" fill={face} />
        <path
          d="M11 18.6c1.4 1.3 3 1.9 5 1.9s3.6-.6 5-1.9"
          stroke={face}
          strokeWidth="1.8"
          fill="none"
          strokeLinecap="round"
        />
      </Box>
      {withWordmark && (
        <Box
          component="span"
          sx={{
            fontWeight: 800,
            fontSize: size * 0.66,
            letterSpacing: '-0.02em',
            color: tone === 'light' ? 'common.white' : 'text.primary',
            lineHeight: 1,
          }}
        >
          {PRODUCT_NAME}
        </Box>
      )}
    </Box>
  );
}
