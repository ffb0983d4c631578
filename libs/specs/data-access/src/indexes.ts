import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  specs: 'specs',
  versions: 'spec_versions',
  contents: 'spec_version_contents',
  raws: 'spec_version_raws',
  translationSettings: 'translation_settings',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.specs, COLLECTIONS.translationSettings];

/** One index per query path; slugs unique per organization and version numbers per spec from unique indexes. */
export const SPECS_INDEXES: IndexPlan = {
  [COLLECTIONS.specs]: [
    { key: { organizationId: 1, slug: 1 }, name: 'org_slug_unique', unique: true, partialFilterExpression: { slug: { $type: 'string' } } },
    { key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'org_created' },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.versions]: [{ key: { specId: 1, number: 1 }, name: 'spec_number_unique', unique: true }],
  [COLLECTIONS.translationSettings]: [{ key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'org_created' }, OUTBOX_INDEX],
};
