import type { BotAppearance } from '@botsmith/contract';
import type { BotEntity } from './bot.entity.js';

/**
 * A bot's appearance (the contract's BotAppearance), field by field, so a column added to bots
 * later never reaches a response by accident.
 */
export function toAppearance(bot: BotEntity): BotAppearance {
  return {
    bubbleIcon: bot.bubbleIcon,
    bubbleColor: bot.bubbleColor,
    bubbleTextColor: bot.bubbleTextColor,
    bubbleBorderRadius: bot.bubbleBorderRadius,
    chatWindowBorderRadius: bot.chatWindowBorderRadius,
    bannerColor: bot.bannerColor,
    bannerTextColor: bot.bannerTextColor,
    bannerDisclaimer: bot.bannerDisclaimer,
    placeholderText: bot.placeholderText,
    placeholderTextColor: bot.placeholderTextColor,
    sendButtonColor: bot.sendButtonColor,
    sendButtonColor1: bot.sendButtonColor,
    sendArrowColor: bot.sendArrowColor,
    widgetBubbleColor: bot.widgetBubbleColor,
    assistantBubbleColor: bot.assistantBubbleColor,
    assistantBubbleTextColor: bot.assistantBubbleTextColor,
    widgetBackgroundColor: bot.widgetBackgroundColor,
    animation: bot.animation,
    widgetPosition: bot.widgetPosition,
  };
}
