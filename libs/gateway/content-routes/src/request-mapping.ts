import type { Caller } from '@bindery/platform/grpc';
import { contentV1 as pb, NullableString } from '@bindery/shared/contracts';

/** What every downstream call of one request carries. */
export interface Call {
  caller: Caller;
  deadline: Date;
}

/** The list parameters (validated by LIST_QUERY) as the services take them. */
export { pageOf } from '@bindery/gateway/http';

/** A PATCH field that may be null: absent → unchanged, null → present without a value, else the value. */
export const nullable = (v: string | null | undefined): NullableString | undefined => (v === undefined ? undefined : { value: v ?? undefined });

type PointerJson = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface MoveBody {
  parent?: string | null;
  position?: { before?: PointerJson; after?: PointerJson };
}

const pointerOf = (p: PointerJson | undefined): pb.ContentPointer | undefined => p && { type: p.type, id: p.type === 'space' ? p.space : p.collection };

/** POST …/move: `parent` absent = the same parent, null = the organization's top level. */
export function moveRequest(id: string, b: MoveBody): pb.MoveRequest {
  return {
    id,
    parent: nullable(b.parent),
    position: b.position && { before: pointerOf(b.position.before), after: pointerOf(b.position.after) },
  };
}
