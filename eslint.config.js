/**
 * One strict, type-aware lint gate for the whole repository, plus the layer
 * rule: dependencies point one way (http -> api -> store/sync -> models ->
 * send, crypto, voip, rtc, files -> client -> web), and widget-api depends on
 * nothing of the SDK. A wrong arrow is a lint error, so CI fails on it.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import arrows from "./scripts/eslint-arrows.mjs";

/** Rules that forbid packages outright, by name: the SDK has no UI and never uses the test homeserver. */
const SDK_FORBIDDEN_PACKAGES = {
  files: ["packages/sdk/src/**/*.ts"],
  ignores: ["**/*.test.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@lattice/web", "@lattice/web/*", "react", "react-dom"], message: "The SDK has no UI." },
          {
            group: ["@lattice/testserver", "@lattice/testserver/*"],
            message: "Only tests may use the test homeserver.",
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "bench/fixtures/**",
      "bench/results/**",
      "**/*.d.ts",
      "**/public/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        URL: "readonly",
        fetch: "readonly",
      },
    },
  },
  {
    files: ["**/*.test.ts", "**/test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // The import arrows (SDK layers, barrels, packages, web view models): see scripts/eslint-arrows.mjs.
    files: ["packages/**/*.{ts,tsx}", "bench/**/*.ts"],
    plugins: { arrows },
    rules: { "arrows/arrows": "error" },
  },
  SDK_FORBIDDEN_PACKAGES,
  {
    files: ["packages/widget-api/src/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@lattice/sdk", "@lattice/sdk/*", "**/sdk/src/**"],
              message: "widget-api depends on nothing of the SDK.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["packages/testserver/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@lattice/sdk", "@lattice/sdk/*", "@lattice/web", "@lattice/widget-api"],
              message: "The test homeserver stands alone: it must not share code with the client it tests.",
            },
          ],
        },
      ],
    },
  },
  {
    // Errors are typed classes (GUIDE rule 8): no bare `new Error` thrown or rejected in any
    // package's src. Test helpers (testing/ folders, testing.ts) may throw plainly.
    files: ["packages/*/src/**/*.ts", "packages/*/src/**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/*.contract.ts", "**/testing/**", "**/testing.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ThrowStatement > NewExpression[callee.name='Error']",
          message:
            "Throw the domain's typed error (with the SPEC message where one exists), not a bare Error.",
        },
        {
          selector: "CallExpression[callee.name='reject'] > NewExpression[callee.name='Error']",
          message: "Reject with the domain's typed error, not a bare Error.",
        },
        {
          selector: "CallExpression[callee.property.name='reject'] > NewExpression[callee.name='Error']",
          message: "Reject with the domain's typed error, not a bare Error.",
        },
      ],
    },
  },
);
