import { invalid } from '@bindery/platform/errors';
import { characterCount, EMOJI_MAX_LENGTH, EMOJI_PATTERN } from '@bindery/shared/text';
import type { ReactionRecord } from './records';

const MAX_PER_CALL = 20;
const EMOJI = new RegExp(EMOJI_PATTERN);

function checkEmoji(list: string[], field: string): string[] {
  if (list.length > MAX_PER_CALL) throw invalid(`${field}: at most ${MAX_PER_CALL} reactions at once.`);
  for (const e of list) if (characterCount(e) > EMOJI_MAX_LENGTH || !EMOJI.test(e)) throw invalid(`${field}: "${e}" is not an emoji.`);
  return [...new Set(list)];
}

/**
 * A user's reactions added and removed: one reaction per user and emoji (adding it again changes
 * nothing), an emoji nobody reacts with any more disappears, the first reaction's order is kept.
 */
export function reactionsAfter(reactions: ReactionRecord[], user: string, added: string[], removed: string[], now: string): ReactionRecord[] {
  const add = checkEmoji(added, 'addedReactions');
  const remove = new Set(checkEmoji(removed, 'removedReactions'));
  const out = reactions.map((r) => ({ emoji: r.emoji, users: r.users.filter((u) => !(u.user === user && remove.has(r.emoji))) }));
  for (const emoji of add) {
    if (remove.has(emoji)) continue;
    const at = out.find((r) => r.emoji === emoji);
    if (!at) out.push({ emoji, users: [{ user, reactedAt: now }] });
    else if (!at.users.some((u) => u.user === user)) at.users.push({ user, reactedAt: now });
  }
  return out.filter((r) => r.users.length > 0);
}
