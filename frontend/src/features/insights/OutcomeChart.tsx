import type { AnalyticsResponse } from '@botsmith/contract';
import { CONVERSATION_OUTCOMES } from '@botsmith/contract';
import Box from '@mui/material/Box';
import { BarChart } from '@mui/x-charts/BarChart';
import { formatDayLabel } from '../usage/usageFormat';
import { OUTCOME_COLORS, OUTCOME_LABELS, periodLabel } from './insightsFormat';

export interface OutcomeChartProps {
  response: AnalyticsResponse;
  height: number;
}

const integer = (value: number) => (Number.isInteger(value) ? String(value) : '');

/**
 * Conversations by outcome per day or week, stacked, in its own module so that @mui/x-charts (and
 * d3) load only when Insights opens. It fills the width it is given, down to a 390 px phone.
 */
export function OutcomeChart({ response, height }: OutcomeChartProps) {
  const starts = response.series.map((period) => period.start);
  const { groupBy } = response;
  return (
    <Box sx={{ width: '100%', minWidth: 0 }}>
      <BarChart
        height={height}
        xAxis={[
          {
            scaleType: 'band',
            data: starts,
            tickLabelMinGap: 8,
            // A tick says "Nov 16"; the tooltip says "Week of Nov 16" when the bars are weeks.
            valueFormatter: (start: string, context) =>
              context.location === 'tick' ? formatDayLabel(start) : periodLabel(start, groupBy),
          },
        ]}
        yAxis={[{ valueFormatter: integer, width: 36, tickMinStep: 1 }]}
        series={CONVERSATION_OUTCOMES.map((outcome) => ({
          id: outcome,
          label: OUTCOME_LABELS[outcome],
          data: response.series.map((period) => period.outcomes[outcome]),
          stack: 'outcomes',
          color: OUTCOME_COLORS[outcome],
        }))}
        margin={{ left: 0, right: 12 }}
      />
    </Box>
  );
}
