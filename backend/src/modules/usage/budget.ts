/**
 * The bot budget rule, written once (docs/product.md#per-bot-budgets): a bot with a monthly budget
 * answers a message only while that message's price still fits what the period has left,
 * spent + price <= budget; a budget of 0 is no limit. A budget is "reached" when the next message
 * would not fit any more, whatever is left below one message's price.
 *
 * Three places decide it: the atomic reservation of a message (SQL, chat.repository.ts, through
 * `nextMessageFitsSql`), the widget's public face (hidden at the budget) and the 100 % budget
 * alert (both through `nextMessageFits`). The two renderings below are the same expression; the
 * budget-rule integration spec evaluates both on the same cases on each database engine.
 */
export interface BudgetCheck {
  /** The bot's monthly budget in cents; 0: no limit. */
  budgetCents: number;
  /** What the period has spent (and, for a reservation, holds for messages in flight). */
  spentCents: number;
  /** The next message's price. */
  priceCents: number;
}

/** Whether one more message at `priceCents` fits the budget. */
export function nextMessageFits({ budgetCents, spentCents, priceCents }: BudgetCheck): boolean {
  return budgetCents <= 0 || spentCents + priceCents <= budgetCents;
}

/** `nextMessageFits` as a SQL condition over SQL expressions (each an integer number of cents). */
export function nextMessageFitsSql(sql: { budgetCents: string; spentCents: string; priceCents: string }): string {
  return `(${sql.budgetCents} <= 0 OR ${sql.spentCents} + ${sql.priceCents} <= ${sql.budgetCents})`;
}
