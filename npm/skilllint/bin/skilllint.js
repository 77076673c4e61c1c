#!/usr/bin/env node
// Runs the prebuilt skilllint binary that npm installed from one of this package's
// optionalDependencies. npm installs only the platform package whose `os` and `cpu` match the
// machine, so nothing is downloaded or compiled at install or run time. Arguments, standard
// streams and the exit code pass through unchanged.
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

// `process.platform process.arch` -> platform package. The Linux binaries are static musl
// builds, so one package per CPU serves glibc and musl systems alike.
const PLATFORM_PACKAGES = {
  "darwin arm64": "@skilllint/cli-darwin-arm64",
  "darwin x64": "@skilllint/cli-darwin-x64",
  "linux arm64": "@skilllint/cli-linux-arm64",
  "linux x64": "@skilllint/cli-linux-x64",
  "win32 x64": "@skilllint/cli-win32-x64",
};

// 2 is skilllint's own exit code for "could not run as asked"; 1 would read as "found problems".
const LAUNCH_FAILED = 2;

function fail(message) {
  process.stderr.write(`skilllint: ${message}\n`);
  process.exit(LAUNCH_FAILED);
}

function binaryPath() {
  const platform = `${process.platform} ${process.arch}`;
  const packageName = PLATFORM_PACKAGES[platform];
  if (packageName === undefined) {
    fail(
      `no prebuilt binary for ${platform}; there are packages for ` +
        `${Object.keys(PLATFORM_PACKAGES).join(", ")}. ` +
        "Install it with `pip install skilllint-rs` or `cargo install skilllint` instead.",
    );
  }
  let manifest;
  try {
    manifest = require.resolve(`${packageName}/package.json`);
  } catch {
    fail(
      `the platform package ${packageName} is not installed. npm leaves it out when ` +
        "optional dependencies are omitted (--omit=optional, --no-optional) or when the " +
        "lockfile was made on another platform; reinstall `skilllint` without that.",
    );
  }
  const executable = process.platform === "win32" ? "skilllint.exe" : "skilllint";
  return path.join(path.dirname(manifest), "bin", executable);
}

const binary = binaryPath();
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  fail(`cannot run ${binary}: ${result.error.message}`);
}
if (result.signal) {
  // Die of the same signal, so that a caller sees what the binary saw.
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? LAUNCH_FAILED);
