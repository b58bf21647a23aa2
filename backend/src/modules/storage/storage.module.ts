import path from 'node:path';
import { Logger, Module, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { FILE_STORAGE, type FileStorage } from './file-storage.js';
import { LocalDiskStorage } from './local-disk.storage.js';
import type { S3Storage } from './s3.storage.js';

/**
 * Local disk under DATA_DIR/uploads unless S3_BUCKET is set. The S3 adapter's module (and the AWS
 * SDK) is imported only then: it costs about 0.2 s of every start otherwise
 * (docs/decisions/0016-chat-path-cost.md, "Start-up").
 */
export async function createFileStorage(config: AppConfig): Promise<FileStorage> {
  if (config.s3) {
    const { S3Storage } = await import('./s3.storage.js');
    return new S3Storage(config.s3);
  }
  return new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
}

@Module({
  providers: [
    {
      provide: FILE_STORAGE,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<FileStorage> => {
        const storage = await createFileStorage(config);
        new Logger('FileStorage').log(
          storage.kind === 's3' ? `Uploads go to S3 bucket ${config.s3!.bucket}` : 'Uploads go to DATA_DIR/uploads',
        );
        return storage;
      },
    },
  ],
  exports: [FILE_STORAGE],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  onApplicationShutdown(): void {
    if (this.storage.kind === 's3') (this.storage as S3Storage).destroy();
  }
}
