import 'reflect-metadata';
import { ConfigValidationError } from '../../config/environment.js';
import { runBillingCycleCommand, UsageError } from './billing-cycle.command.js';
import { describeErrorWithStack } from '../../common/error-description.js';

/** `npm run billing:cycle [-- --at=<ISO date>]`: see billing-cycle.command.ts. */
runBillingCycleCommand(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigValidationError || error instanceof UsageError) {
      process.stderr.write(`\n${error.message}\n\n`);
    } else {
      process.stderr.write(`The billing cycle failed: ${describeErrorWithStack(error)}\n`);
    }
    process.exit(1);
  },
);
