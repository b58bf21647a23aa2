import { describe, expect, it } from 'vitest';
import { widgetChatLink } from './widget-link.js';

describe('widgetChatLink', () => {
  it("adds the bot's fragment to the conversation's page, replacing any fragment", () => {
    expect(widgetChatLink('https://shop.example/pricing', 12)).toBe('https://shop.example/pricing#botsmith-chat=12');
    expect(widgetChatLink('http://shop.example/a?b=1#top', 3)).toBe('http://shop.example/a?b=1#botsmith-chat=3');
  });
  it('gives nothing for a missing page or one that is not http(s)', () => {
    expect(widgetChatLink(null, 1)).toBeNull();
    expect(widgetChatLink('javascript:alert(1)', 1)).toBeNull();
    expect(widgetChatLink('data:text/html,<script>', 1)).toBeNull();
    expect(widgetChatLink('not a url', 1)).toBeNull();
  });
});
