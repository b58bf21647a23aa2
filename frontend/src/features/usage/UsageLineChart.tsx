import { LineChart } from '@mui/x-charts/LineChart';
import { formatCostTooltip, formatTokensTooltip, type UsageChartData } from './usageFormat';

export interface UsageLineChartProps {
  data: UsageChartData;
  height: number;
}

/**
 * The chart itself, in its own module so that @mui/x-charts (and d3) load only when a usage tab
 * is opened, not with the dashboard. Straight segments with marks: one point per day.
 */
export function UsageLineChart({ data, height }: UsageLineChartProps) {
  return (
    <LineChart
      height={height}
      xAxis={[{ scaleType: 'point', data: data.labels }]}
      series={[
        {
          id: 'messages',
          label: 'Messages',
          data: data.messages,
          curve: 'linear',
          valueFormatter: (_value, { dataIndex }) => String(data.messageCounts[dataIndex] ?? 0),
        },
        { id: 'tokens', label: 'Tokens', data: data.tokens, curve: 'linear', valueFormatter: formatTokensTooltip },
        { id: 'cost', label: 'Cost', data: data.cost, curve: 'linear', valueFormatter: formatCostTooltip },
      ]}
      margin={{ left: 8, right: 32 }}
    />
  );
}
