export * from './indexes';
export * from './change-requests.repository';
export * from './comments.repository';
export * from './reviews.repository';
