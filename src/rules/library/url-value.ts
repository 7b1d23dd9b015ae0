/** `url(string)`: Go `url.ParseRequestURI` check, then the URL parts. */
import { CelError, type CelValue } from "../../cel/index.js";
import { isRequestURI, requestURIError, splitURL } from "../../go/url.js";
import { URLValue } from "./kube-values.js";

/** The `kubernetes.URL` value of `s`, or Kubernetes' conversion error. */
export function parseURLValue(s: string): CelValue {
  if (!isRequestURI(s)) return new CelError(`URL parse error during conversion from string: ${requestURIError(s)}`);
  return new URLValue(splitURL(s), s);
}
