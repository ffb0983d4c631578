import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { changeRequestsV1 } from '@bindery/shared/contracts';

export * from './change-request-events';

const SERVICES = {
  changeRequests: changeRequestsV1.ChangeRequestsServiceService,
  comments: changeRequestsV1.CommentsServiceService,
  reviewers: changeRequestsV1.ReviewersServiceService,
};

/** Typed clients of change-requests' gRPC services (deadline and signed caller on each call). */
export const connectChangeRequests = clientSet(SERVICES);
export type ChangeRequestsClients = ClientsOf<typeof SERVICES>;
export * from './change-requests-address';
