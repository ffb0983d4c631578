import { asService, createLogger } from './logger';

describe('the service a log line names', () => {
  test('is the process name, or in asService the hosted service, for work started there too', async () => {
    const lines: Array<{ service: string; msg: string }> = [];
    const log = createLogger((line) => lines.push(JSON.parse(line)));
    log.info('outside');
    await asService('identity', async () => {
      log.info('inside');
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.info('after a timer');
    });
    await Promise.all([asService('content', async () => log.info('content')), asService('search', async () => log.info('search'))]);
    expect(lines.map((l) => [l.msg, l.service])).toEqual([
      ['outside', process.env.BINDERY_SERVICE_NAME ?? 'bindery'],
      ['inside', 'identity'],
      ['after a timer', 'identity'],
      ['content', 'content'],
      ['search', 'search'],
    ]);
  });
});
