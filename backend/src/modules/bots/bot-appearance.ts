import type { Animation, WidgetPosition } from '../../common/constants.js';
import type { BotEntity } from './bot.entity.js';

/** How a bot looks in the widget: shared by the owner's view and the public face. */
export interface BotAppearance {
  bubbleIcon: string;
  bubbleColor: string;
  bubbleTextColor: string;
  bubbleBorderRadius: string;
  chatWindowBorderRadius: string;
  bannerColor: string;
  bannerTextColor: string;
  bannerDisclaimer: string;
  placeholderText: string;
  placeholderTextColor: string;
  sendButtonColor: string;
  /** The same value as sendButtonColor: the brief says the widget reads this name. */
  sendButtonColor1: string;
  sendArrowColor: string;
  widgetBubbleColor: string;
  assistantBubbleColor: string;
  assistantBubbleTextColor: string;
  widgetBackgroundColor: string;
  animation: Animation;
  widgetPosition: WidgetPosition;
}

/** Field by field, so a column added to bots later never reaches a response by accident. */
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
