/** The HTTP apps the monolith can host besides the gRPC services; they call the services, so they start last. */
export const HTTP_APPS = ['gateway', 'reader'] as const;

/**
 * The apps named by BINDERY_SERVICES: `all` (or nothing) for every one, else a comma list of names
 * (`identity,content,gateway`). An unknown name is an error naming the known ones.
 */
export function selectApps(value: string | undefined, services: string[]): { services: string[]; http: string[] } {
  const known = [...services, ...HTTP_APPS];
  const names = (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (!names.length || (names.length === 1 && names[0] === 'all')) return { services: [...services], http: [...HTTP_APPS] };
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`BINDERY_SERVICES names ${unknown.join(', ')}, which this build does not have; it has ${known.join(', ')} (or all)`);
  return { services: services.filter((s) => names.includes(s)), http: HTTP_APPS.filter((a) => names.includes(a)) };
}
