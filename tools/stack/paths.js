'use strict';
// Where the local stack keeps what it downloads, builds and stores. Everything lives under one
// git-ignored folder so a second start reuses it.
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const cacheDir = process.env.BINDERY_CACHE_DIR ? path.resolve(process.env.BINDERY_CACHE_DIR) : path.join(root, '.cache', 'stack');

const env = (name, fallback) => Number(process.env[name] || fallback);

module.exports = {
  root,
  cacheDir,
  binDir: path.join(cacheDir, 'bin'),
  dataDir: path.join(cacheDir, 'data'),
  logDir: path.join(cacheDir, 'logs'),
  runDir: path.join(cacheDir, 'run'),
  ports: {
    mongo: env('BINDERY_LOCAL_MONGO_PORT', 25017),
    kafka: env('BINDERY_LOCAL_KAFKA_PORT', 25092),
    kafkaController: env('BINDERY_LOCAL_KAFKA_CONTROLLER_PORT', 25093),
  },
};
