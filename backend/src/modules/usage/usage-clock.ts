import { Injectable } from '@nestjs/common';

/**
 * Where the usage read side gets "now". One injectable so an integration test can pin the clock
 * of the running app (`jest.spyOn(app.get(UsageClock), 'now')`) and ask for a period boundary.
 */
@Injectable()
export class UsageClock {
  now(): Date {
    return new Date();
  }
}
