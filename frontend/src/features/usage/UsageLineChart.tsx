import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart, lineClasses } from '@mui/x-charts/LineChart';
import { formatCostAxis, formatCostTooltip, type UsageChartData } from './usageFormat';

export interface UsageLineChartProps {
  data: UsageChartData;
  /** Height of the counts chart; the cost chart is a little lower. */
  height: number;
}

const integer = (value: number) => (Number.isInteger(value) ? String(value) : '');

/**
 * The charts themselves, in their own module so that @mui/x-charts (and d3) load only when a usage
 * tab is opened, not with the dashboard. Answers and visitor messages share a count axis; the cost
 * has a chart (and a dollar axis) of its own, so a few cents never lie flat beside hundreds of
 * messages. Both fill the width they are given, down to a 390 px phone.
 */
export function UsageLineChart({ data, height }: UsageLineChartProps) {
  const { palette } = useTheme();
  const xAxis = [{ scaleType: 'band' as const, data: data.labels, tickLabelMinGap: 6 }];
  return (
    <Box sx={{ width: '100%', minWidth: 0 }}>
      <Typography variant="subtitle2" component="h4">
        Answers and visitor messages
      </Typography>
      <LineChart
        height={height}
        xAxis={[{ ...xAxis[0], scaleType: 'point' }]}
        yAxis={[{ id: 'count', valueFormatter: integer, width: 36, tickMinStep: 1 }]}
        series={[
          // Most days every visitor message gets an answer: the two lines coincide. The answers'
          // marks and the visitor messages' dashes keep both in sight where they do.
          {
            id: 'answers',
            label: 'Answers',
            data: data.answers,
            curve: 'linear',
            color: palette.primary.main,
            showMark: true,
          },
          {
            id: 'visitor-messages',
            label: 'Visitor messages',
            data: data.visitorMessages,
            curve: 'linear',
            color: palette.warning.main,
          },
        ]}
        // The point scale puts the last day on the edge: room for its label ("Nov 27"), never "N…".
        margin={{ left: 0, right: 28 }}
        sx={{ [`& .${lineClasses.line}[data-series="visitor-messages"]`]: { strokeDasharray: '6 4' } }}
      />
      <Typography variant="subtitle2" component="h4" sx={{ mt: 1 }}>
        Cost
      </Typography>
      <BarChart
        height={Math.round(height * 0.7)}
        xAxis={xAxis}
        yAxis={[{ id: 'dollars', valueFormatter: formatCostAxis, width: 48 }]}
        series={[
          {
            id: 'cost',
            label: 'Cost',
            data: data.cost,
            valueFormatter: formatCostTooltip,
            color: palette.success.main,
          },
        ]}
        hideLegend
        margin={{ left: 0, right: 12 }}
      />
    </Box>
  );
}
