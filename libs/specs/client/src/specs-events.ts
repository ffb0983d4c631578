import { defineEvent } from '@bindery/platform/events';
import { specsEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event specs publishes (topic bindery.specs.v1), each type paired with its payload message
 * from proto/bindery/events/specs/v1 once: producers create and consumers decode through these definitions.
 */
export const SpecsEvents = {
  specCreated: defineEvent('specs.spec.created', ev.SpecCreated),
  specUpdated: defineEvent('specs.spec.updated', ev.SpecUpdated),
  specProcessed: defineEvent('specs.spec.processed', ev.SpecProcessed),
  specDeleted: defineEvent('specs.spec.deleted', ev.SpecDeleted),
  specVersionCreated: defineEvent('specs.spec_version.created', ev.SpecVersionCreated),
  translationSettingsCreated: defineEvent('specs.translation_settings.created', ev.TranslationSettingsChanged),
  translationSettingsUpdated: defineEvent('specs.translation_settings.updated', ev.TranslationSettingsChanged),
  translationSettingsDeleted: defineEvent('specs.translation_settings.deleted', ev.TranslationSettingsDeleted),
};
