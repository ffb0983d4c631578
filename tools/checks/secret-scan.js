#!/usr/bin/env node
'use strict';
// Looks for Bindery's secrets where they must never be: the apps' log lines and the events on Kafka.
// Every secret starts with one of the prefixes in libs/shared/ids (SECRET_PREFIXES) followed by at
// least 20 URL-safe characters, so a match is a leak, whatever the secret's owner.
//   node tools/checks/secret-scan.js [--logs <dir>] [--kafka <brokers>]
// The test command runs it after the suites, on the logs of every app the tests started and on every
// topic of the broker they used, and counts it as one test.
const fs = require('node:fs');
const path = require('node:path');

const PREFIXES = ['gb_api', 'bshare', 'bsite', 'whsec', 'bsess'];
const PATTERN = new RegExp(`\\b(?:${PREFIXES.join('|')})_[A-Za-z0-9_.-]{20,}`, 'g');
// What SAML sign-in must never leave behind either: a private key in PEM form, and a SAML response
// or assertion, as XML or base64 as posted ("<samlp:Response", "<saml:Assertion", "<Assertion " encoded).
const MATERIAL = [
  ['private key', /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/g],
  ['SAML XML', /<(?:[A-Za-z0-9]+:)?(?:Response|Assertion)\b[^>]*urn:oasis:names:tc:SAML|<(?:saml2?|samlp):(?:Response|Assertion)\b/g],
  ['SAML base64', /PHNhbWxwOlJlc3BvbnNl|PHNhbWw6QXNzZXJ0aW9u|PHNhbWwyOkFzc2VydGlvbg|PHNhbWwycDpSZXNwb25zZ/g],
];

/** The secrets found in `text` (each shortened to its prefix and first characters, so the report is no leak of its own). */
function findSecrets(text) {
  const material = MATERIAL.flatMap(([name, pattern]) => [...text.matchAll(pattern)].map(() => `${name}…`));
  return [...[...text.matchAll(PATTERN)].map((m) => `${m[0].slice(0, m[0].indexOf('_') + 5)}…`), ...material];
}

/** Every file under `dir` (the apps' logs), line by line. */
function scanLogs(dir) {
  const found = [];
  let files = 0;
  let lines = 0;
  if (!dir || !fs.existsSync(dir)) return { files, lines, found };
  for (const name of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    files++;
    for (const line of text.split('\n')) {
      if (!line) continue;
      lines++;
      for (const s of findSecrets(line)) found.push(`${name}: ${s}`);
    }
  }
  return { files, lines, found };
}

/** Every message of every topic on the broker, from the beginning to the end it has now. */
async function scanKafka(brokers, timeoutMs = 120000) {
  const { Kafka, logLevel } = require('kafkajs');
  const kafka = new Kafka({ clientId: 'secret-scan', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const found = [];
  let messages = 0;
  let topics = [];
  try {
    topics = (await admin.listTopics()).filter((t) => !t.startsWith('__'));
    const ends = new Map();
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic)) if (Number(p.high) > Number(p.low)) ends.set(`${topic}:${p.partition}`, Number(p.high));
    }
    if (!ends.size) return { topics: topics.length, messages, found };
    const consumer = kafka.consumer({ groupId: `secret-scan-${process.pid}-${Date.now()}` });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [...new Set([...ends.keys()].map((k) => k.slice(0, k.lastIndexOf(':'))))], fromBeginning: true });
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Kafka scan: ${ends.size} partition(s) not read to their end in ${timeoutMs} ms`)), timeoutMs);
        consumer
          .run({
            eachMessage: async ({ topic, partition, message }) => {
              messages++;
              const text = `${message.key ?? ''} ${message.value ?? ''} ${JSON.stringify(message.headers ?? {})}`;
              for (const s of findSecrets(text)) found.push(`${topic}: ${s}`);
              const key = `${topic}:${partition}`;
              if (ends.has(key) && Number(message.offset) + 1 >= ends.get(key)) ends.delete(key);
              if (!ends.size) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
  } finally {
    await admin.disconnect();
  }
  return { topics: topics.length, messages, found };
}

module.exports = { findSecrets, scanLogs, scanKafka, PATTERN };

if (require.main === module) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  (async () => {
    const logs = scanLogs(arg('--logs'));
    console.log(`logs: ${logs.lines} lines in ${logs.files} files, ${logs.found.length} secret(s)`);
    let kafka = { topics: 0, messages: 0, found: [] };
    if (arg('--kafka')) {
      kafka = await scanKafka(arg('--kafka'));
      console.log(`kafka: ${kafka.messages} messages in ${kafka.topics} topics, ${kafka.found.length} secret(s)`);
    }
    for (const f of [...logs.found, ...kafka.found]) console.log(`  ${f}`);
    process.exit(logs.found.length + kafka.found.length ? 1 : 0);
  })().catch((err) => {
    console.error(err.stack || err.message);
    process.exit(2);
  });
}
