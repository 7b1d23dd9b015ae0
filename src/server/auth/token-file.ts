/**
 * kube-apiserver's `--token-auth-file` (apiserver `tokenfile.NewCSV`): CSV records
 * `token,user,uid[,"group1,group2"]`, at least three columns, empty tokens skipped, later duplicates win.
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { CrdkitError } from "../../errors/index.js";
import type { UserInfo } from "./user-info.js";

/** A problem in the token file (the server refuses to start). */
export class TokenFileError extends CrdkitError {
  constructor(message: string) {
    super("token-file", message);
  }
}

/** What reading a token file found: the tokens and kube-apiserver's warnings (empty or duplicate tokens). */
export interface TokenFile {
  tokens: Map<string, UserInfo>;
  warnings: string[];
}

/** Parses the text of a token file named `path` (used in messages). */
export function parseTokenFile(text: string, path: string): TokenFile {
  let records: string[][];
  try {
    // Go's encoding/csv: variable field counts, `"` quoting, no trimming, blank lines skipped.
    records = parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (e) {
    throw new TokenFileError(`token file '${path}': ${e instanceof Error ? e.message : String(e)}`);
  }
  const tokens = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let n = 0;
  for (const rec of records) {
    if (rec.length < 3) {
      throw new TokenFileError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${rec.length}`);
    }
    n++;
    const [token, name, uid] = rec as [string, string, string];
    if (token === "") {
      warnings.push(`empty token has been found in token file '${path}', record number '${n}'`);
      continue;
    }
    if (tokens.has(token)) warnings.push(`duplicate token has been found in token file '${path}', record number '${n}'`);
    tokens.set(token, { name, uid, groups: rec.length >= 4 ? rec[3]!.split(",") : [] });
  }
  return { tokens, warnings };
}

/** Reads and parses `path`; a missing or unreadable file is a {@link TokenFileError}. */
export function readTokenFile(path: string): TokenFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new TokenFileError(`token file '${path}': ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseTokenFile(text, path);
}
