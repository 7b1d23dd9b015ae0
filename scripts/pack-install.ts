/**
 * Packs crdkit (`npm pack`) and installs the tarball into an empty project with `--omit=optional`, as a
 * user who only validates would: no better-sqlite3, so nothing is compiled. Measures the install time and
 * the installed size, checks that no package with native code or an install script was installed, and
 * runs `npx crdkit validate` and `npx crdkit serve --data` (which must explain that better-sqlite3 is missing).
 *
 *   node --import tsx scripts/pack-install.ts [--keep]
 * Packs with --ignore-scripts: `dist/` and `web/dist/` must be built (npm run build:web); `npm pack` without
 * it builds them through `prepack`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface PackInstall {
  dir: string;
  tarball: string;
  tarballBytes: number;
  installMs: number;
  /** Bytes under node_modules after the install. */
  installedBytes: number;
  packages: string[];
  /** Installed packages that build native code (binding.gyp, node-gyp or prebuild-install scripts; must be empty). */
  native: string[];
  /** Installed packages with install scripts of any kind (e.g. protobufjs' plain-JS postinstall). */
  installScripts: string[];
  validate: { status: number | null; stdout: string; stderr: string };
  serve: { status: number | null; stdout: string; stderr: string };
  /** Files of the tarball (as `npm pack --json` lists them). */
  files: string[];
}

function du(p: string): number {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of readdirSync(p)) n += du(join(p, e));
  return n;
}

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** Packs and installs into a fresh temporary project; the caller removes `dir`. */
export function packAndInstall(): PackInstall {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-pack-"));
  const packed = JSON.parse(execFileSync(NPM, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" })) as {
    filename: string;
    size: number;
    files: { path: string }[];
  }[];
  const tarball = join(dir, packed[0]!.filename);
  const project = join(dir, "project");
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "crdkit-install-check", version: "1.0.0", private: true }));
  const started = process.hrtime.bigint();
  execFileSync(NPM, ["install", "--omit=optional", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project, encoding: "utf8" });
  const installMs = Number(process.hrtime.bigint() - started) / 1e6;
  const lock = JSON.parse(readFileSync(join(project, "node_modules/.package-lock.json"), "utf8")) as { packages: Record<string, { hasInstallScript?: boolean }> };
  const packages = Object.keys(lock.packages).map((k) => k.replace(/^node_modules\//, ""));
  const scriptsOf = (k: string): string => {
    const p = join(project, k, "package.json");
    if (!existsSync(p)) return "";
    const s = (JSON.parse(readFileSync(p, "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
    return [s["preinstall"], s["install"], s["postinstall"]].filter(Boolean).join(" ; ");
  };
  const native = Object.keys(lock.packages).filter((k) => existsSync(join(project, k, "binding.gyp")) || /node-gyp|prebuild|cmake-js|node-pre-gyp/.test(scriptsOf(k)));
  const installScripts = Object.entries(lock.packages)
    .filter(([, v]) => v.hasInstallScript)
    .map(([k]) => `${k.replace(/^node_modules\//, "")} (${scriptsOf(k)})`);
  const run = (...args: string[]) => {
    const r = spawnSync("npx", ["--no-install", "crdkit", ...args], { cwd: project, encoding: "utf8", timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const ex = "node_modules/crdkit/examples";
  return {
    dir,
    tarball,
    tarballBytes: packed[0]!.size,
    installMs,
    installedBytes: du(join(project, "node_modules")),
    packages,
    native,
    installScripts,
    validate: run("validate", "--crds", `${ex}/crontab-crd.yaml`, `${ex}/crontab-valid.yaml`),
    serve: run("serve", "--data", join(dir, "data"), "--listen", "127.0.0.1:0"),
    files: packed[0]!.files.map((f) => f.path),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = packAndInstall();
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  console.log(`tarball ${kb(r.tarballBytes)} (${r.files.length} files)`);
  console.log(`npm install --omit=optional: ${(r.installMs / 1000).toFixed(1)} s, node_modules ${kb(r.installedBytes)}, packages: ${r.packages.filter((p) => p !== "").join(", ")}`);
  console.log(`packages building native code: ${r.native.length === 0 ? "none" : r.native.join(", ")}`);
  console.log(`packages with install scripts: ${r.installScripts.length === 0 ? "none" : r.installScripts.join(", ")}`);
  console.log(`npx crdkit validate: exit ${r.validate.status}: ${r.validate.stdout.trim()}`);
  console.log(`npx crdkit serve --data: exit ${r.serve.status}: ${r.serve.stderr.trim()}`);
  if (process.argv.includes("--keep")) console.log(`kept in ${r.dir}`);
  else rmSync(r.dir, { recursive: true, force: true });
}
