/** `schemas/builtin.json.br` beside `src/` or `dist/` (both are two levels below the package root). */
export const BUILTIN_BUNDLE_URL = new URL("../../schemas/builtin.json.br", import.meta.url);
