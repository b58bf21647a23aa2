import { buildConfig } from './config.js';

/** The quotas of docs/product.md#quotas: their defaults, their variables, and what each refuses. */
describe('quota configuration', () => {
  it('has the documented defaults from an empty environment', () => {
    expect(buildConfig({}, '/repo').quotas).toEqual({
      handoffMessagesPerConversationPerDay: 30,
      leadsPerBotPerDay: 100,
      maxBotsPerAccount: 50,
      sourcesMaxBytesPerAccount: 500 * 1024 * 1024,
      embeddedPassagesPerAccountPerDay: 20_000,
      replyStreamsPerInstance: 500,
    });
  });

  it('takes each variable', () => {
    const config = buildConfig(
      {
        HANDOFF_MESSAGES_PER_CONVERSATION_PER_DAY: '5',
        LEADS_PER_BOT_PER_DAY: '7',
        MAX_BOTS_PER_ACCOUNT: '2',
        SOURCES_MAX_BYTES_PER_ACCOUNT: '1048576',
        EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY: '0',
        REPLY_STREAMS_PER_INSTANCE: '40',
      },
      '/repo',
    );
    expect(config.quotas).toEqual({
      handoffMessagesPerConversationPerDay: 5,
      leadsPerBotPerDay: 7,
      maxBotsPerAccount: 2,
      sourcesMaxBytesPerAccount: 1_048_576,
      embeddedPassagesPerAccountPerDay: 0,
      replyStreamsPerInstance: 40,
    });
  });

  it('refuses a value that is not a whole number, or below 1 (0 passages embedded is allowed: none)', () => {
    for (const name of [
      'HANDOFF_MESSAGES_PER_CONVERSATION_PER_DAY',
      'LEADS_PER_BOT_PER_DAY',
      'MAX_BOTS_PER_ACCOUNT',
      'SOURCES_MAX_BYTES_PER_ACCOUNT',
      'REPLY_STREAMS_PER_INSTANCE',
    ]) {
      for (const bad of ['0', '-1', '2.5', 'many']) {
        expect(() => buildConfig({ [name]: bad }, '/repo')).toThrow(new RegExp(`- ${name}: .*\\(got `));
      }
    }
    for (const bad of ['-1', '2.5', 'many']) {
      expect(() => buildConfig({ EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY: bad }, '/repo')).toThrow(
        /- EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY: /,
      );
    }
  });
});
