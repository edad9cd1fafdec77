/**
 * Content collections. Each area keeps its schemas next to its domain code in src/lib/content/;
 * the data itself lives in content/ (YAML/JSON/MDX).
 */
import { blogCollections } from "./lib/content/blog.ts";
import { growthCollections } from "./lib/content/growth.ts";
import { marketingCollections } from "./lib/content/marketing.ts";

export const collections = { ...marketingCollections, ...growthCollections, ...blogCollections };
