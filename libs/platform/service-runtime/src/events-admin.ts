import { conflict, forbidden, notFound } from '@bindery/platform/errors';
import { CallerContext, grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { platformEventsAdminV1 as pb } from '@bindery/shared/contracts';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import type { DeadLetter } from '@bindery/platform/events';
import { ServiceConsumers } from './consumers';

const adminsOnly = (ctx: CallerContext) => {
  if (!ctx.caller.isInstanceAdmin) throw forbidden('Dead letters are for instance admins.');
};

const toMessage = (l: DeadLetter): pb.DeadLetter => ({
  id: l.id,
  consumer: l.consumer,
  eventJson: JSON.stringify(l.event),
  topic: l.topic,
  partition: l.partition,
  offset: l.offset,
  attempts: l.attempts,
  error: l.error,
  firstFailedAt: l.firstFailedAt,
  lastFailedAt: l.lastFailedAt,
});

/** bindery.platform.v1.EventsAdmin, served by every service: its dead letters, and their replay (instance admins). */
export function eventsAdminService(consumers: ServiceConsumers): GrpcRegistration {
  return grpcService(pb.EventsAdminService, {
    async listDeadLetters(req, ctx) {
      adminsOnly(ctx);
      const limit = resolveLimit(req.page?.limit);
      const { items, count } = await consumers.deadLetters.page(decodeCursor(req.page?.page || undefined)?.id, limit);
      const page = toPage(items, limit, count, (l) => ({ id: l.id }), toMessage);
      return { items: page.items, page: { count: page.count, nextPage: page.nextPage } };
    },
    async replayDeadLetter(req, ctx) {
      adminsOnly(ctx);
      const outcome = await consumers.replay(req.id);
      if (!outcome) throw notFound('Dead letter');
      if (!outcome.replayed) throw conflict(`The event failed again and stays a dead letter: ${outcome.error}`);
      return { applied: outcome.applied };
    },
  });
}
