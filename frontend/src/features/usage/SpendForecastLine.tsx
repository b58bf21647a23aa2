import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { usageApi } from '../../api';
import { useApiResource } from '../../hooks/useApiResource';
import { forecastSentence } from './usageFormat';

export interface SpendForecastLineProps {
  /** The bot whose forecast is shown; null: the account's (all bots, against the spend alert). */
  botId: number | null;
}

const loadForecast = (signal: AbortSignal) => usageApi.getUsageForecast(signal);

/**
 * Where this billing period's spend is heading (docs/product.md#spend-forecast): "At this pace,
 * Shop helper reaches its $10 budget around the 24th", or where the period ends without a budget.
 * Nothing while it loads or for a bot the forecast does not know.
 */
export function SpendForecastLine({ botId }: SpendForecastLineProps) {
  const forecast = useApiResource(loadForecast);
  const [today] = useState(() => new Date().toISOString().slice(0, 10));
  if (forecast.status === 'error') {
    return (
      <Typography variant="body2" color="textSecondary" data-testid="spend-forecast">
        The spend forecast could not be loaded.
      </Typography>
    );
  }
  if (forecast.status !== 'ready') return null;
  const { account, bots } = forecast.data;
  const bot = botId === null ? null : bots.find((entry) => entry.botId === botId);
  if (bot === undefined) return null;
  const figures = bot ?? account;
  // Nothing spent and nothing ahead: "ends at about $0.00" would only be noise.
  if (figures.spentCents === 0 && figures.forecastCents === 0) return null;
  const text = forecastSentence(figures, bot?.botName ?? null, today);
  return (
    <Typography variant="body2" data-testid="spend-forecast">
      {text}
    </Typography>
  );
}
