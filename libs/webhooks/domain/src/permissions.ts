/** Only an organization's administrators (and the instance administrator) see and manage its webhooks. */
export function canManageWebhooks(role: string | null | undefined, isInstanceAdmin: boolean): boolean {
  return isInstanceAdmin || role === 'admin';
}
