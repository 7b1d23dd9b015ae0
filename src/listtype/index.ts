export { validateListSetsAndMaps } from "./validate.js";
