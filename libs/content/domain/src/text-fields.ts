import { invalid } from '@bindery/platform/errors';
import { hasLengthWithin, TEXT_LIMITS } from '@bindery/shared/text';

/** A space's or a collection's title, within the limit the gateway's schema declares (counted in code points). */
export function checkContentTitle(title: string): string {
  const { min, max } = TEXT_LIMITS.contentTitle;
  if (!hasLengthWithin(title, min, max)) throw invalid(`title must be at most ${max} characters.`);
  return title;
}

/** A collection's description, within the limit the gateway's schema declares (counted in code points). */
export function checkCollectionDescription(description: string): string {
  const { min, max } = TEXT_LIMITS.collectionDescription;
  if (!hasLengthWithin(description, min, max)) throw invalid(`description must be at most ${max} characters.`);
  return description;
}
