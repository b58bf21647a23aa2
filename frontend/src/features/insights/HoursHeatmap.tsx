import Box from '@mui/material/Box';
import { alpha, useTheme } from '@mui/material/styles';
import { hourCellLabel, WEEKDAYS } from './insightsFormat';

export interface HoursHeatmapProps {
  /** Conversations started per weekday (0 Monday … 6 Sunday) and hour (0–23). */
  hours: number[][];
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/**
 * The busiest hours: a table of 7 weekdays by 24 hours, each cell shaded by its share of the
 * busiest cell and named for screen readers ("Tue 10:00 – 3 conversations"). On a phone it keeps
 * its cells readable and scrolls sideways.
 */
export function HoursHeatmap({ hours }: HoursHeatmapProps) {
  const { palette } = useTheme();
  const busiest = Math.max(0, ...hours.flat());
  return (
    <Box
      role="region"
      aria-label="Busiest hours, scrollable"
      tabIndex={0}
      sx={{ overflowX: 'auto', pb: 1, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
    >
      <Box
        component="table"
        aria-label="Conversations started by weekday and hour"
        sx={{ borderCollapse: 'separate', borderSpacing: '3px', minWidth: 560, width: '100%', tableLayout: 'fixed' }}
      >
        <thead>
          <tr>
            <Box component="th" scope="col" sx={{ width: 36 }}>
              <Box component="span" sx={visuallyHidden}>
                Weekday
              </Box>
            </Box>
            {HOURS.map((hour) => (
              <Box
                component="th"
                scope="col"
                key={hour}
                aria-label={`${String(hour).padStart(2, '0')}:00`}
                sx={{ typography: 'caption', color: 'text.secondary', fontWeight: 400, textAlign: 'left' }}
              >
                {hour % 3 === 0 ? hour : ''}
              </Box>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((weekday, day) => (
            <tr key={weekday}>
              <Box
                component="th"
                scope="row"
                sx={{
                  typography: 'caption',
                  color: 'text.secondary',
                  fontWeight: 400,
                  textAlign: 'left',
                  // The weekday stays in sight while a phone scrolls the hours sideways.
                  position: 'sticky',
                  left: 0,
                  zIndex: 1,
                  bgcolor: 'background.paper',
                }}
              >
                {weekday}
              </Box>
              {HOURS.map((hour) => {
                const count = hours[day]?.[hour] ?? 0;
                const label = hourCellLabel(day, hour, count);
                return (
                  <Box
                    component="td"
                    key={hour}
                    title={label}
                    aria-label={label}
                    data-count={count}
                    sx={{
                      height: 22,
                      borderRadius: 0.5,
                      p: 0,
                      bgcolor:
                        count === 0
                          ? palette.action.hover
                          : alpha(palette.primary.main, 0.15 + 0.85 * (count / busiest)),
                    }}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </Box>
      <Box
        sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1, typography: 'caption', color: 'text.secondary' }}
      >
        <span>Fewer</span>
        {[0.15, 0.43, 0.72, 1].map((shade) => (
          <Box
            key={shade}
            aria-hidden
            sx={{ width: 14, height: 14, borderRadius: 0.5, bgcolor: alpha(palette.primary.main, shade) }}
          />
        ))}
        <span>More (busiest hour: {busiest})</span>
      </Box>
    </Box>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
