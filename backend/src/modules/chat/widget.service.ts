import { BOT_DEFAULTS, widgetTheme, type PublicBot, type PublicLeadCapture } from '@botsmith/contract';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { periodStartFor } from '../../common/billing-period.js';
import { MODEL_CATALOGUE, priceOf } from '../../common/constants.js';
import { toAppearance } from '../bots/bot-appearance.js';
import type { BotEntity } from '../bots/bot.entity.js';
import { nextMessageFits } from '../usage/budget.js';
import { ownerBillingState } from '../usage/usage-ledger.service.js';
import { ChatRepository } from './chat.repository.js';

@Injectable()
export class WidgetService {
  constructor(private readonly repository: ChatRepository) {}

  async publicBot(botId: number, now = new Date()): Promise<{ bot: PublicBot }> {
    // One query: the bot, its owner's billing row and its period spend (this endpoint is on the
    // widget's load path, before the launcher can show).
    const found = await this.repository.findPublicBotInputs(botId, periodStartFor(now));
    if (!found) throw AppError.notFound('This chatbot does not exist.', 'BOT_NOT_FOUND');
    const { bot, owner, periodSpendCents } = found;
    const cannotAnswer =
      !ownerBillingState(owner).canServe ||
      // "Reached": the next message would not fit the budget any more (usage/budget.ts).
      !nextMessageFits({
        budgetCents: bot.usageLimitDollars * 100,
        spentCents: periodSpendCents,
        priceCents: priceOf(bot.model),
      });
    // A bot that takes leads at the cap may stay on the page as "Leave a message"
    // (docs/product.md#leads-and-handoff). `hidden` keeps its meaning (it cannot chat), so a
    // widget that has no lead form (one cached from before) still hides it rather than showing a
    // chat that can only refuse.
    const leadOnly = cannotAnswer && offersLeadsAtCap(bot);
    return { bot: toPublicBot(bot, cannotAnswer, leadOnly) };
  }
}

function offersLeadsAtCap(bot: BotEntity): boolean {
  return bot.leadCapture.enabled && bot.leadCapture.offerWhen.includes('cap');
}

/** The form's public part: never the addresses leads are sent to. */
function publicLeadCapture(bot: BotEntity): PublicLeadCapture | null {
  const setting = bot.leadCapture;
  if (!setting.enabled) return null;
  return { fields: setting.fields, offerWhen: setting.offerWhen, thankYouText: setting.thankYouText };
}

/** Field by field, so a column added to bots later never leaks by accident. */
export function toPublicBot(bot: BotEntity, hidden: boolean, leadOnly = false): PublicBot {
  return {
    id: bot.id,
    name: bot.name,
    customGreeting: bot.customGreeting,
    starterQuestions: bot.starterQuestions,
    widgetLanguage: bot.widgetLanguage,
    model: bot.model,
    // The model's name only when the owner shows it to visitors; '' hides it (docs/product.md#embedded-widget).
    modelLabel: bot.showModelLabel ? (MODEL_CATALOGUE[bot.model]?.label ?? bot.model) : '',
    hidden,
    leadCapture: publicLeadCapture(bot),
    leadOnly,
    ...toAppearance(bot),
    // The product's default placeholder is no owner's text: empty, the widget says it in the
    // visitor's language (docs/product.md#widget-languages).
    placeholderText: bot.placeholderText === BOT_DEFAULTS.placeholderText ? '' : bot.placeholderText,
    theme: widgetTheme(toAppearance(bot)),
  };
}
