'use strict';
// The Kafka topics test systems leave behind: each end-to-end system, service under test and bench
// runs in a namespace of its own (`t1a2b3c4d.bindery.content.v1`), and the topics outlive it so that the
// secret scan can read every event once the suites end. Afterwards they are only weight: a broker
// holding thousands of leftover partitions took 14.5 s to start instead of 1.5 s.
const { Kafka, logLevel } = require('kafkajs');

/** A test namespace: a few letters and a random hex part, then a dot (never the local stack's own `bindery.…`). */
const TEST_TOPIC = /^[a-z]{1,5}[0-9a-f]{6,8}\./;

/** Deletes the test namespaces' topics and consumer groups on `brokers`; answers how many topics went. */
async function deleteTestTopics(brokers) {
  const kafka = new Kafka({ clientId: 'test-cleanup', brokers: brokers.split(','), logLevel: logLevel.NOTHING, retry: { retries: 2 } });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => TEST_TOPIC.test(t));
    for (let i = 0; i < topics.length; i += 200) await admin.deleteTopics({ topics: topics.slice(i, i + 200), timeout: 30000 });
    const { groups } = await admin.listGroups();
    const testGroups = groups.map((g) => g.groupId).filter((g) => TEST_TOPIC.test(g));
    for (let i = 0; i < testGroups.length; i += 200) await admin.deleteGroups(testGroups.slice(i, i + 200)).catch(() => undefined);
    return topics.length;
  } finally {
    await admin.disconnect();
  }
}

module.exports = { deleteTestTopics, TEST_TOPIC };
