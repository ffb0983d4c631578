export { people } from './people';
export type { UserJson } from './people';
export { changeRequestJson, changeRequestLocation, usersOfChangeRequest } from './representations';
export { changeRequestReader } from './change-request-reader';
export type { ChangeRequestJson, ChangeRequestOf } from './change-request-reader';
