export * from './org-access-projection';
export * from './org-access-source';
export * from './identity-stand-in';
