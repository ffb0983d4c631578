export * from './identity-routes';
// Representations other modules answer with too (content's permission lists name users and teams).
export { organizationJson, userJson } from './representations';
export { teamJson } from './team-representations';
