/** GitSync's business rules: pure functions and types, no I/O. */
export function describeCaller(service: string, userId: string): { service: string; callerUserId: string } {
  return { service, callerUserId: userId };
}

/** A note: one fact git-sync keeps about a subject (the skeleton's one kind of record). */
export interface NoteRecord {
  _id: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** The note recorded when identity creates a user (one per user: its id is the user's). */
export function noteOfNewUser(userId: string, email: string, at: string): NoteRecord {
  return { _id: `user:${userId}`, subject: userId, text: `user ${email} created`, createdAt: at };
}
