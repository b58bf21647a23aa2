import { accountSpendStep, botBudgetSteps } from './budget-alerts.service.js';

describe('botBudgetSteps', () => {
  it('passes 50 and 80 at those shares of the budget, and 100 once the next message would not fit', () => {
    expect(botBudgetSteps(49, 100, 3)).toEqual([]);
    expect(botBudgetSteps(50, 100, 3)).toEqual([50]);
    expect(botBudgetSteps(79, 100, 3)).toEqual([50]);
    expect(botBudgetSteps(80, 100, 3)).toEqual([50, 80]);
    expect(botBudgetSteps(97, 100, 3)).toEqual([50, 80]);
    // 99 of 100 cents with a 3-cent model: the bot refuses from here, so the budget is reached.
    expect(botBudgetSteps(98, 100, 3)).toEqual([50, 80, 100]);
    expect(botBudgetSteps(100, 100, 5)).toEqual([50, 80, 100]);
  });

  it('has no steps without a budget', () => {
    expect(botBudgetSteps(10_000, 0, 3)).toEqual([]);
  });
});

describe('accountSpendStep', () => {
  it('is the highest 50 % step of the threshold passed', () => {
    expect(accountSpendStep(999, 2000)).toBe(0);
    expect(accountSpendStep(1000, 2000)).toBe(50);
    expect(accountSpendStep(1999, 2000)).toBe(50);
    expect(accountSpendStep(2000, 2000)).toBe(100);
    expect(accountSpendStep(6100, 2000)).toBe(300);
  });

  it('is 0 when the owner turned the alert off', () => {
    expect(accountSpendStep(1_000_000, 0)).toBe(0);
  });
});
