import type { BotResponse, BotDetailsUpdate, BotPromptingUpdate, BotStylingUpdate } from '../../api/types';

export function detailsOf(bot: BotResponse): BotDetailsUpdate {
  return {
    name: bot.name,
    customGreeting: bot.customGreeting,
    starterQuestions: [...bot.starterQuestions],
    widgetLanguage: bot.widgetLanguage,
    model: bot.model,
    showModelLabel: bot.showModelLabel,
    categoryId: bot.categoryId,
    allowedDomain: bot.allowedDomain,
  };
}

export function stylingOf(bot: BotResponse): BotStylingUpdate {
  return {
    bubbleColor: bot.bubbleColor,
    bubbleTextColor: bot.bubbleTextColor,
    bubbleIcon: bot.bubbleIcon ?? '',
    bubbleBorderRadius: bot.bubbleBorderRadius,
    chatWindowBorderRadius: bot.chatWindowBorderRadius,
    bannerColor: bot.bannerColor,
    sendButtonColor: bot.sendButtonColor,
    sendArrowColor: bot.sendArrowColor,
    bannerTextColor: bot.bannerTextColor,
    bannerDisclaimer: bot.bannerDisclaimer,
    placeholderText: bot.placeholderText,
    placeholderTextColor: bot.placeholderTextColor,
    widgetBubbleColor: bot.widgetBubbleColor,
    assistantBubbleColor: bot.assistantBubbleColor,
    assistantBubbleTextColor: bot.assistantBubbleTextColor,
    widgetBackgroundColor: bot.widgetBackgroundColor,
    animation: bot.animation,
    widgetPosition: bot.widgetPosition,
  };
}

export function promptingOf(bot: BotResponse): BotPromptingUpdate {
  return { prompt: bot.prompt, maxTokens: bot.maxTokens, temperature: bot.temperature };
}
