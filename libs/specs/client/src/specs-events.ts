import { defineEvent } from '@bindery/platform/events';
import { specsEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event specs publishes (topic bindery.specs.v1), each type paired with its payload message
 * from proto/bindery/events/specs/v1 once: producers create and consumers decode through these definitions.
 */
export const SpecsEvents = {
  noteRecorded: defineEvent('specs.note.recorded', ev.NoteRecorded),
};
