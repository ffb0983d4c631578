import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';

/**
 * A file's type comes from its bytes, not from what its uploader or its source server claimed: a
 * type is what browsers act on, and a claimed one is how an HTML page gets served as "an image".
 *
 * The rule (docs/files.md):
 * 1. bytes file-type recognises (images, PDF, archives, audio, video, fonts…) → that type;
 * 2. otherwise the `contentType` given with the file, if it is text-like and the bytes look like
 *    text (no NUL byte in the head); `image/svg+xml` only when the head also looks like SVG;
 * 3. otherwise the source's Content-Type (url uploads), on the same conditions;
 * 4. otherwise `application/octet-stream`.
 */
export async function sniffContentType(head: Buffer, claimed: { given?: string; source?: string }): Promise<string> {
  const sniffed = await fileTypeFromBuffer(head).catch(() => undefined);
  // XML is text whose exact type only the claim can tell (SVG, Atom, plain XML): rule 2 decides it.
  if (sniffed && sniffed.mime !== 'application/xml') return sniffed.mime;
  for (const claim of [claimed.given, claimed.source]) {
    const type = mediaTypeOf(claim);
    if (type && acceptableTextType(type, head)) return type;
  }
  return 'application/octet-stream';
}

const TEXT_LIKE = /^(?:text\/[a-z0-9.+-]+|application\/(?:json|xml|yaml|x-yaml|x-ndjson|javascript|ecmascript|[a-z0-9.-]+\+(?:json|xml))|image\/svg\+xml)$/;

/** 'Text/CSV; charset=utf-8' → 'text/csv'; undefined for anything that is not a media type. */
export function mediaTypeOf(value: string | undefined): string | undefined {
  const type = value?.split(';', 1)[0]?.trim().toLowerCase();
  return type && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : undefined;
}

function acceptableTextType(type: string, head: Buffer): boolean {
  if (!TEXT_LIKE.test(type) || head.includes(0)) return false;
  return type !== 'image/svg+xml' || looksLikeSvg(head);
}

/** An SVG document: an optional BOM, XML declaration, comments and doctype, then an `<svg` element. */
export function looksLikeSvg(head: Buffer): boolean {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  return /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<svg[\s>]/i.test(text);
}

/**
 * The pixel size of an image from its first bytes; undefined when the type is not an image or the
 * bytes do not tell (a JPEG whose metadata pushes its frame header past them, a damaged file).
 */
export function imageDimensionsOf(bytes: Uint8Array, contentType: string): { width: number; height: number } | undefined {
  if (!contentType.startsWith('image/')) return undefined;
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
