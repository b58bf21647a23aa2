import Typography from '@mui/material/Typography';

export interface NotChargedLineProps {
  /** Answers of the shown period the bot could not give (the usage API's `notChargedAnswers`). */
  count: number | undefined;
}

/**
 * The fair meter's line (docs/product.md#the-fair-meter): how many answers of the period were not
 * charged because the bot could not give them. Nothing when there are none.
 */
export function NotChargedLine({ count }: NotChargedLineProps) {
  if (!count) return null;
  return (
    <Typography variant="body2" color="textSecondary" data-testid="not-charged-answers">
      not charged: {count} answers the bot could not give
    </Typography>
  );
}
