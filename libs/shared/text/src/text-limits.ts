/**
 * The length limits of text fields that the gateway's schemas and the services both check, in
 * characters as `characterCount` counts them. Limits come from the API reference (or the official
 * spec where the reference is silent).
 */
export const TEXT_LIMITS = {
  /** a space's or a collection's title */
  contentTitle: { min: 0, max: 50 },
  /** a collection's description */
  collectionDescription: { min: 0, max: 100 },
  /** a change request's subject */
  changeRequestSubject: { min: 0, max: 100 },
  /** an organization's title (trimmed) */
  organizationTitle: { min: 2, max: 255 },
  /** a team's title (trimmed) */
  teamTitle: { min: 1, max: 64 },
} as const;
