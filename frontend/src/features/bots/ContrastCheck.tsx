import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  adjustBackground,
  checkContrast,
  colourStops,
  DEFAULT_COLOURS,
  formatGradient,
  parseGradient,
  readableTextOn,
  relativeLuminance,
  solidGradient,
  type ColourField,
  type ContrastResult,
} from '@botsmith/contract';
import type { BotStylingUpdate } from '../../api/types';

export interface ContrastCheckProps {
  styling: BotStylingUpdate;
  /** Applies a fix: new stored values for one or two colour fields. */
  onFix: (changes: Partial<Record<ColourField, string>>) => void;
}

/** A stored background with each stop moved just enough for `text` to pass; null where it cannot. */
function adjustedBackground(value: string, field: ColourField, text: string, minimum: number): string | null {
  const [from, to = from] = colourStops(value, DEFAULT_COLOURS[field]);
  const newFrom = adjustBackground(from, text, minimum);
  const newTo = adjustBackground(to, text, minimum);
  if (!newFrom || !newTo) return null;
  const direction = parseGradient(value)?.direction ?? 'to right';
  return newFrom === newTo ? solidGradient(newFrom) : formatGradient({ direction, from: newFrom, to: newTo });
}

/** The one-click fixes of a failing pair: black or white text, or the background darkened or lightened. */
function fixesOf(result: ContrastResult, styling: BotStylingUpdate) {
  const { pair, text } = result;
  const background = styling[pair.background];
  const stops = colourStops(background, DEFAULT_COLOURS[pair.background]);
  const fixes: Array<{ label: string; changes: Partial<Record<ColourField, string>> }> = [];
  if (pair.text) {
    const readable = readableTextOn(stops);
    fixes.push({
      label: `Use ${readable === '#000000' ? 'black' : 'white'} ${pair.minimum < 4.5 ? 'icon' : 'text'}`,
      changes: { [pair.text]: solidGradient(readable) },
    });
  }
  const adjusted = adjustedBackground(background, pair.background, text, pair.minimum);
  if (adjusted) {
    const darker = relativeLuminance(text) > relativeLuminance(stops[0]);
    fixes.push({ label: `${darker ? 'Darken' : 'Lighten'} the background`, changes: { [pair.background]: adjusted } });
  }
  return fixes;
}

const ratioText = (ratio: number) => `${ratio.toFixed(1)}:1`;

/**
 * The contrast of every text/background pair of the widget (docs/product.md#colours), by the
 * contract's WCAG AA rule: each pair that is hard to read says its ratio and what it needs, with
 * one-click fixes; the pairs that pass are listed below.
 */
export function ContrastCheck({ styling, onFix }: ContrastCheckProps) {
  const results = checkContrast(styling);
  const failing = results.filter((result) => !result.passes);
  const passing = results.filter((result) => result.passes);
  return (
    <Box component="section" aria-labelledby="contrast-title" sx={{ mb: 3 }}>
      <Typography
        id="contrast-title"
        variant="overline"
        component="h3"
        color="textSecondary"
        sx={{ display: 'block', mb: 1 }}
      >
        Contrast (WCAG AA)
      </Typography>
      {failing.length > 0 ? (
        <Alert severity="warning" icon={<WarningAmberRounded />} sx={{ mb: 1.5 }}>
          <AlertTitle>
            {failing.length === 1 ? 'One colour pair is' : `${failing.length} colour pairs are`} hard to read
          </AlertTitle>
          <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {failing.map((result) => (
              <Box component="li" key={result.pair.id} data-pair={result.pair.id}>
                <Typography variant="body2">
                  <strong>{result.pair.label}</strong>: {ratioText(result.ratio)}, needs{' '}
                  {ratioText(result.pair.minimum)}
                  {result.pair.minimum < 4.5 ? ' for an icon' : ' for text'}.
                </Typography>
                <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
                  {fixesOf(result, styling).map((fix) => (
                    <Button
                      key={fix.label}
                      size="small"
                      variant="outlined"
                      color="inherit"
                      onClick={() => onFix(fix.changes)}
                      aria-label={`${result.pair.label}: ${fix.label}`}
                    >
                      {fix.label}
                    </Button>
                  ))}
                </Stack>
              </Box>
            ))}
          </Stack>
        </Alert>
      ) : (
        <Alert severity="success" sx={{ mb: 1.5 }}>
          Every text and icon of the widget is readable on its background.
        </Alert>
      )}
      {passing.length > 0 && (
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1.5 }} aria-label="Pairs that pass">
          {passing.map((result) => (
            <Stack key={result.pair.id} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              <CheckCircleRounded fontSize="small" color="success" aria-hidden />
              <Typography variant="body2" color="textSecondary">
                {result.pair.label} {ratioText(result.ratio)}
              </Typography>
            </Stack>
          ))}
        </Stack>
      )}
    </Box>
  );
}
