import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import {
  DIRECTION_LABELS,
  formatGradient,
  GRADIENT_DIRECTIONS,
  gradientOrSolid,
  isHex,
  toSixDigits,
  type GradientDirection,
} from './gradient';

export interface GradientFieldProps {
  label: string;
  /** The stored gradient string. */
  value: string;
  /** Used when `value` cannot be read. */
  fallback: string;
  onChange: (value: string) => void;
}

interface ColourInputProps {
  /** Visible label. */
  label: string;
  /** Accessible name, with the field's label. */
  name: string;
  value: string;
  onChange: (hex: string) => void;
}

/** A swatch that opens the browser's colour picker, beside the hex code, editable by hand. */
function ColourInput({ label, name, value, onChange }: ColourInputProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? value;
  const invalid = draft !== null && !isHex(draft);
  return (
    // Never narrower than the swatch and a whole "#rrggbb": two colours that do not fit side by
    // side (a gradient in a narrow card) wrap to two rows instead of running past the card's edge.
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flex: '1 1 0', minWidth: 'min-content' }}>
      <Box
        component="input"
        type="color"
        aria-label={`${name} picker`}
        value={toSixDigits(value)}
        onChange={(event: React.ChangeEvent<HTMLInputElement>) => {
          setDraft(null);
          onChange(event.target.value.toLowerCase());
        }}
        sx={{
          width: 40,
          height: 40,
          p: 0.25,
          flexShrink: 0,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1.5,
          bgcolor: 'background.paper',
          cursor: 'pointer',
          '&:focus-visible': { outline: 3, outlineColor: 'primary.light', outlineOffset: 2 },
        }}
      />
      <TextField
        size="small"
        label={label}
        value={text}
        error={invalid}
        onChange={(event) => {
          const next = event.target.value.trim();
          setDraft(next);
          if (isHex(next)) onChange(next.toLowerCase());
        }}
        onBlur={() => setDraft(null)}
        slotProps={{
          htmlInput: { spellCheck: false, maxLength: 7, 'aria-label': name, size: 8 },
        }}
        // Wide enough for "#rrggbb" whole in the monospace font, however narrow the column.
        sx={{ flex: 1, minWidth: '12ch', maxWidth: 160, '& input': { fontFamily: 'monospace' } }}
      />
    </Stack>
  );
}

/**
 * One colour of the bot as it is stored (docs/product.md#colours): a solid colour (stored as the
 * same colour twice), or with "Use a gradient" a direction and two colours, with a swatch of the result.
 */
export function GradientField({ label, value, fallback, onChange }: GradientFieldProps) {
  const id = useId();
  const gradient = gradientOrSolid(value, fallback);
  const solid = gradient.from === gradient.to;
  // Open once the owner asks for a gradient, even while both stops are still the same colour.
  const [gradientOpen, setGradientOpen] = useState(!solid);
  const showGradient = gradientOpen || !solid;
  const update = (changes: Partial<typeof gradient>) => onChange(formatGradient({ ...gradient, ...changes }));
  const toggleGradient = (on: boolean) => {
    setGradientOpen(on);
    if (!on) update({ direction: 'to right', to: gradient.from });
  };
  return (
    <Box
      role="group"
      aria-labelledby={id}
      sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper' }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
        <Box
          aria-hidden
          sx={{
            width: 28,
            height: 28,
            borderRadius: '50%',
            flexShrink: 0,
            border: 1,
            borderColor: 'divider',
            backgroundImage: formatGradient(gradient),
          }}
        />
        <Typography id={id} variant="subtitle2" component="h4" sx={{ fontWeight: 600, flex: 1 }}>
          {label}
        </Typography>
        {showGradient && (
          <TextField
            select
            size="small"
            label="Direction"
            value={gradient.direction}
            onChange={(event) => update({ direction: event.target.value as GradientDirection })}
            sx={{ width: 150 }}
          >
            {GRADIENT_DIRECTIONS.map((direction) => (
              <MenuItem key={direction} value={direction}>
                {DIRECTION_LABELS[direction]}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
      {showGradient ? (
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
          <ColourInput
            label="Start colour"
            name={`${label} start colour`}
            value={gradient.from}
            onChange={(from) => update({ from })}
          />
          <ColourInput
            label="End colour"
            name={`${label} end colour`}
            value={gradient.to}
            onChange={(to) => update({ to })}
          />
        </Stack>
      ) : (
        <ColourInput
          label="Colour"
          name={label}
          value={gradient.from}
          onChange={(hex) => update({ from: hex, to: hex })}
        />
      )}
      <FormControlLabel
        sx={{ mt: 0.5, mb: -0.5 }}
        control={<Checkbox size="small" checked={showGradient} onChange={(_, on) => toggleGradient(on)} />}
        label={<Typography variant="body2">Use a gradient</Typography>}
      />
    </Box>
  );
}
