import { platformEventsAdminV1 } from '@bindery/shared/contracts';
import { grpcClient } from './typed-service';

/** A client of bindery.platform.v1.EventsAdmin, which every service serves beside its own services. */
export function connectEventsAdmin(address: string, defaultDeadlineMs: number) {
  return grpcClient(platformEventsAdminV1.EventsAdminService, address, defaultDeadlineMs);
}

export type EventsAdminClient = ReturnType<typeof connectEventsAdmin>;
