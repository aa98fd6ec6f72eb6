// Lint and format for the whole tree, run once at the root (`pnpm lint:code`, inside `pnpm test`;
// `pnpm format` applies the fixes). docs/contributing.md explains the choices:
// - no type-aware rules (`pnpm test` stays fast; tsc already checks types and unused locals);
// - formatting is dprint's TypeScript plugin run through @effect/eslint-plugin's `@effect/dprint`
//   rule, from npm packages (nothing downloaded at run time), with the Effect repository's settings.
import * as effectEslint from "@effect/eslint-plugin"
import js from "@eslint/js"
import { defineConfig } from "eslint/config"
import globals from "globals"
import tseslint from "typescript-eslint"

/** dprint-plugin-typescript options; the names are dprint's (https://dprint.dev/plugins/typescript/config/). */
const dprintConfig = {
  indentWidth: 2,
  lineWidth: 120,
  semiColons: "asi",
  quoteStyle: "alwaysDouble",
  trailingCommas: "never",
  operatorPosition: "maintain",
  "arrowFunction.useParentheses": "force",
  // Import and export order stays as written (dprint sorts by default): fewer lines touched.
  "module.sortImportDeclarations": "maintain",
  "module.sortExportDeclarations": "maintain",
  "importDeclaration.sortNamedImports": "maintain",
  "exportDeclaration.sortNamedExports": "maintain"
}

export default defineConfig(
  {
    ignores: [
      "**/dist/**",
      "**/.turbo/**",
      "**/coverage/**",
      "**/test-results/**",
      "**/.tmp/**",
      "**/node_modules/**"
    ]
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" }
  },
  {
    files: ["**/*.{ts,mts,cts,js,mjs,cjs}"],
    extends: [js.configs.recommended, tseslint.configs.recommended, effectEslint.configs.dprint],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node }
    },
    rules: {
      // Effect idioms: `Effect.gen(function*() { ... })` without a yield, `any` in variance
      // positions, `{}` in type-level code, namespaces that merge with a value.
      "require-yield": "off",
      // The dual-API pattern (`function() { ... arguments[0] ... }`) and ANSI-stripping regexes.
      "prefer-rest-params": "off",
      "no-control-regex": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-unused-vars": ["error", {
        argsIgnorePattern: "^_",
        varsIgnorePattern: "^_",
        caughtErrorsIgnorePattern: "^_"
      }],
      "@effect/dprint": ["error", { config: dprintConfig }],
      // dprint breaks code at 120 columns but neither comments nor strings: a longer line is
      // allowed only where a string, template or regular expression cannot break.
      "max-len": ["error", {
        code: 120,
        ignoreStrings: true,
        ignoreTemplateLiterals: true,
        ignoreRegExpLiterals: true,
        ignoreUrls: true
      }]
    }
  },
  {
    // tsc's noUnusedLocals / noUnusedParameters already report these for TypeScript.
    files: ["**/*.{ts,mts,cts}"],
    rules: { "@typescript-eslint/no-unused-vars": "off" }
  }
)
