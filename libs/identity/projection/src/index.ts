export * from './org-access-projection';
