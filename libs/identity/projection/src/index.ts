export * from './org-access-projection';
export * from './org-access-source';
