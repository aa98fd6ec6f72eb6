#!/usr/bin/env node
// The bin is this committed shim, not dist/hashPasswordBin.js: pnpm links bins at install, before
// any build, and a bin whose file does not exist yet makes every install print a warning.
import "../dist/hashPasswordBin.js"
