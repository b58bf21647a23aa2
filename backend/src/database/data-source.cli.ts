import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './database.options.js';

const url = process.env.DATABASE_URL;
if (!url) {
  throw new Error(
    'DATABASE_URL is not set. The migration CLI needs a PostgreSQL server; the embedded database migrates itself at start.',
  );
}

export default new DataSource(dataSourceOptions({ url, embedded: false, poolSize: 2 }));
