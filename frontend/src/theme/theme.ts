import { alpha, createTheme } from '@mui/material/styles';

/**
 * The one place where Botsmith's look lives. Components read these tokens through `sx` and
 * `theme.palette`, never hard-coded colours, so a restyle is a change to this file only.
 *
 * Primary is a deep emerald: it sits next to the bots' default #2ecc71 green but is dark enough
 * for white button text to pass WCAG AA (5.5:1).
 */

const systemFontStack = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  'sans-serif',
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
].join(',');

const ink = {
  900: '#0b1324',
  700: '#334155',
  500: '#5b6678',
  300: '#cbd5e1',
  200: '#e2e8f0',
  100: '#f1f5f9',
  50: '#f8fafc',
};

export const brand = {
  /** The default colour of a new bot (docs/product.md#bot-defaults); used for accents that echo the widget. */
  botGreen: '#2ecc71',
  /** Hero and call-to-action gradient. */
  gradient: 'linear-gradient(135deg, #047857 0%, #0d9488 55%, #0e7490 100%)',
  /** Soft tinted surface behind feature sections. */
  mist: '#f0fdf7',
  /** The warm backdrop behind the demo video and its still. */
  demoBackdrop: '#fbf7f2',
  /** Where the dark deploy card's gradient ends (it starts at the ink). */
  deepTeal: '#12303a',
  /** A translucent dark chip over images ("Click to view"). */
  scrim: alpha('#000000', 0.55),
  /** The lift under the auth card. */
  raisedShadow: `0 24px 48px -24px ${alpha(ink[900], 0.18)}`,
  /** Text, lines and fills on the dark surfaces: the footer, the auth side panel, the deploy card. */
  onDark: {
    text: alpha('#ffffff', 0.82),
    muted: alpha('#ffffff', 0.78),
    hairline: alpha('#ffffff', 0.12),
    dot: alpha('#ffffff', 0.25),
    well: alpha('#000000', 0.35),
    /** Links on dark. */
    accent: '#6ee7b7',
    /** Code on dark. */
    code: '#d1fae5',
  },
  ink,
} as const;

/** Base corner radius in px; larger surfaces use a multiple of it. */
const radius = 10;

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#047857', light: '#10b981', dark: '#065f46', contrastText: '#ffffff' },
    secondary: { main: '#4338ca', light: '#6366f1', dark: '#3730a3', contrastText: '#ffffff' },
    success: { main: '#15803d' },
    error: { main: '#c62828' },
    warning: { main: '#b45309' },
    info: { main: '#0e7490' },
    text: { primary: ink[900], secondary: ink[500] },
    divider: ink[200],
    background: { default: ink[50], paper: '#ffffff' },
  },
  shape: { borderRadius: radius },
  typography: {
    fontFamily: systemFontStack,
    h1: {
      fontSize: 'clamp(2.25rem, 5vw + 0.5rem, 3.75rem)',
      fontWeight: 800,
      lineHeight: 1.08,
      letterSpacing: '-0.03em',
    },
    h2: {
      fontSize: 'clamp(1.75rem, 3vw + 0.5rem, 2.625rem)',
      fontWeight: 800,
      lineHeight: 1.15,
      letterSpacing: '-0.02em',
    },
    h3: { fontSize: '1.5rem', fontWeight: 700, lineHeight: 1.25, letterSpacing: '-0.01em' },
    h4: { fontSize: '1.25rem', fontWeight: 700, lineHeight: 1.3 },
    h5: { fontSize: '1.0625rem', fontWeight: 700, lineHeight: 1.4 },
    h6: { fontSize: '1rem', fontWeight: 700, lineHeight: 1.4 },
    subtitle1: { fontSize: '1.125rem', lineHeight: 1.6, color: ink[700] },
    body1: { fontSize: '1rem', lineHeight: 1.65 },
    body2: { fontSize: '0.9375rem', lineHeight: 1.6 },
    overline: { fontWeight: 700, letterSpacing: '0.12em', lineHeight: 1.6 },
    button: { textTransform: 'none', fontWeight: 600, letterSpacing: 0 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        html: { scrollBehavior: 'smooth', scrollPaddingTop: 80 },
        body: { WebkitFontSmoothing: 'antialiased', MozOsxFontSmoothing: 'grayscale' },
        '@media (prefers-reduced-motion: reduce)': {
          html: { scrollBehavior: 'auto' },
          '*, *::before, *::after': { transitionDuration: '0.01ms !important', animationDuration: '0.01ms !important' },
        },
      },
    },
    MuiButtonBase: {
      defaultProps: { disableRipple: false },
      // A focus ring everyone can see (keyboard only): buttons, icon buttons, list items, tabs, cards.
      styleOverrides: {
        root: ({ theme: t }) => ({
          '&.Mui-focusVisible': { outline: `3px solid ${t.palette.primary.main}`, outlineOffset: 2 },
        }),
      },
    },
    MuiListItemButton: {
      styleOverrides: {
        root: ({ theme: t }) => ({
          '&.Mui-focusVisible': { outline: `3px solid ${t.palette.primary.main}`, outlineOffset: -3 },
        }),
      },
    },
    MuiCardActionArea: {
      styleOverrides: {
        // Inside the card (whose rounded corners clip what is outside), with a tint.
        root: ({ theme: t }) => ({
          '&.Mui-focusVisible': { outline: `3px solid ${t.palette.primary.main}`, outlineOffset: -3 },
          '&.Mui-focusVisible .MuiCardActionArea-focusHighlight': { opacity: 0.06 },
        }),
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: ({ theme: t }) => ({
          borderRadius: 999,
          paddingInline: t.spacing(2.5),
          '&.Mui-focusVisible': { outline: `3px solid ${t.palette.primary.main}`, outlineOffset: 2 },
          variants: [
            {
              props: { variant: 'contained', color: 'primary' },
              style: {
                boxShadow: `0 8px 20px -8px ${alpha(t.palette.primary.main, 0.6)}`,
                '&:hover': { backgroundColor: t.palette.primary.dark },
              },
            },
          ],
        }),
        sizeLarge: ({ theme: t }) => ({
          paddingBlock: t.spacing(1.5),
          paddingInline: t.spacing(3.5),
          fontSize: '1.0625rem',
        }),
      },
    },
    MuiLink: {
      defaultProps: { underline: 'hover' },
      styleOverrides: {
        root: ({ theme: t }) => ({
          fontWeight: 500,
          '&:focus-visible': {
            outline: `3px solid ${alpha(t.palette.primary.main, 0.45)}`,
            outlineOffset: 2,
            borderRadius: 4,
          },
        }),
      },
    },
    MuiPaper: {
      styleOverrides: {
        rounded: { borderRadius: radius * 1.6 },
        outlined: { borderColor: ink[200] },
      },
    },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'inherit' },
    },
    MuiTooltip: {
      defaultProps: { arrow: true },
      styleOverrides: {
        tooltip: { backgroundColor: ink[900], fontSize: '0.8125rem', padding: '8px 12px', borderRadius: 8 },
        arrow: { color: ink[900] },
      },
    },
    MuiAccordion: {
      defaultProps: { disableGutters: true, elevation: 0 },
      styleOverrides: {
        root: ({ theme: t }) => ({
          border: `1px solid ${t.palette.divider}`,
          borderRadius: radius * 1.4,
          '&::before': { display: 'none' },
          '&:not(:last-of-type)': { marginBottom: t.spacing(1.5) },
          '&.Mui-expanded': { borderColor: alpha(t.palette.primary.main, 0.4) },
        }),
      },
    },
    MuiTextField: {
      defaultProps: { fullWidth: true },
    },
    MuiDialog: {
      styleOverrides: {
        paper: { borderRadius: radius * 1.6 },
      },
    },
  },
});
