import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { sessionSecret } from '../config/session-secret.js';
import { ClientNetworks } from './client-network.js';

/** One ClientNetworks for the app, injectable everywhere (chat limits, login throttling, streams). */
@Global()
@Module({
  providers: [
    {
      provide: ClientNetworks,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ClientNetworks(sessionSecret(config)),
    },
  ],
  exports: [ClientNetworks],
})
export class ClientNetworkModule {}
