// ESLint flat config: typescript-eslint's strict, type-checked rule set over src/, test/ and bench/.
//
// Relaxed for now, to tighten later:
// - restrict-template-expressions allows numbers and booleans (the reports format them on purpose);
// - no-misused-spread is off (redaction spreads strings into code points on purpose);
// - no-confusing-void-expression is off (the HTTP handlers `return send(...)` to end a branch);
// - in test/: no-non-null-assertion (tests index fixtures they just built) and
//   no-dynamic-delete (tests delete fields to build bad input), require-await (async fakes),
//   no-unnecessary-condition (`afterAll(() => sandbox?.remove())` guards a failed setup), and the
//   no-unsafe-* / no-base-to-string family (vitest's `expect.any()` and JSON.parse results).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const nodeGlobals = {
  process: "readonly",
  console: "readonly",
  performance: "readonly",
  Buffer: "readonly",
  URL: "readonly",
  setTimeout: "readonly",
  clearTimeout: "readonly",
  setInterval: "readonly",
  clearInterval: "readonly",
  fetch: "readonly",
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "test-output/**", "examples/**"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.config.ts", "*.config.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": [
        "error",
        { allowNumber: true, allowBoolean: true },
      ],
      "@typescript-eslint/no-confusing-void-expression": "off",
      "@typescript-eslint/no-misused-spread": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-dynamic-delete": "off",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unnecessary-condition": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: nodeGlobals,
    },
  },
);
