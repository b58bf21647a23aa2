import { describe, expect, it } from '@jest/globals';
import type { BotsService } from '../bots/bots.service.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import { AnalyticsService } from './analytics.service.js';

/**
 * A repository whose queries fail as PostgreSQL does on a zone missing from its list (they run
 * at once: each of them fails).
 */
function repositoryFailingWith(error: Error): AnalyticsRepository {
  return new Proxy({}, { get: () => () => Promise.reject(error) }) as AnalyticsRepository;
}

describe('AnalyticsService', () => {
  it("answers 400 INVALID_RANGE when Intl knows a time zone that the database's list does not", async () => {
    const refused = Object.assign(new Error('query failed'), {
      driverError: { code: '22023', message: 'time zone "America/Ciudad_Juarez" not recognized' },
    });
    const service = new AnalyticsService(repositoryFailingWith(refused), {} as BotsService);
    await expect(service.analytics(1, { timeZone: 'America/Ciudad_Juarez' })).rejects.toMatchObject({
      code: 'INVALID_RANGE',
      status: 400,
    });
  });

  it('lets any other database failure through as it is', async () => {
    const other = Object.assign(new Error('query failed'), {
      driverError: { code: '22023', message: 'something else' },
    });
    const service = new AnalyticsService(repositoryFailingWith(other), {} as BotsService);
    await expect(service.analytics(1, {})).rejects.toBe(other);
  });
});
