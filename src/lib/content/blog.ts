/**
 * Content collections for the blog pages (issue 6). Each collection: a loader over files in
 * content/ and a zod schema with a JSDoc line per field. Merged in src/content.config.ts.
 */
export const blogCollections = {};
