'use strict';
// Jest global teardown for projects that talk to the real infrastructure: stops the app processes
// this run started and left running (the systems shared per worker) and drops this run's databases.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { MongoClient } = require('mongodb');

module.exports = async function globalTeardown() {
  const run = process.env.BINDERY_TEST_RUN;
  if (!run) return;
  const dir = path.join(os.tmpdir(), `bindery-test-${run}`);
  for (const pid of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const url = process.env.BINDERY_TEST_MONGODB_URL;
  if (!url) return;
  const client = await new MongoClient(url, { serverSelectionTimeoutMS: 5000 }).connect();
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const db of databases.filter((d) => d.name.startsWith(`e2e_${run}_`))) await client.db(db.name).dropDatabase();
  } finally {
    await client.close();
  }
};
