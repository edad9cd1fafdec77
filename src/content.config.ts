/**
 * Content collections. Each area keeps its schemas in src/lib/content/ (built from the shared
 * shapes in shapes.ts); the data itself lives in content/ (YAML/JSON/MDX).
 */
import { blogCollections } from "./lib/content/blog.ts";
import { growthCollections } from "./lib/content/growth.ts";
import { homeCollections } from "./lib/content/home.ts";
import { legalCollections } from "./lib/content/legal.ts";
import { resourceCollections } from "./lib/content/resources.ts";
import { serviceCollections } from "./lib/content/services.ts";

export const collections = {
  ...serviceCollections,
  ...homeCollections,
  ...growthCollections,
  ...resourceCollections,
  ...legalCollections,
  ...blogCollections,
};
