/**
 * One strict, type-aware lint gate for the whole repository, plus the layer
 * rule: dependencies point one way (http -> api -> store/sync -> models ->
 * send, crypto, voip, rtc, files -> client -> web), and widget-api depends on
 * nothing of the SDK. A wrong arrow is a lint error, so CI fails on it.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** SDK layers, lowest first. A layer may import only layers before it. */
const SDK_LAYERS = [
  ["http"],
  ["api", "auth"],
  ["store", "sync"],
  ["models"],
  ["send", "crypto", "voip", "rtc", "files"],
];
const UPPER = ["client"];

function layerRules() {
  const configs = [];
  SDK_LAYERS.forEach((group, i) => {
    const forbidden = [...SDK_LAYERS.slice(i + 1).flat(), ...UPPER];
    for (const layer of group) {
      configs.push({
        files: [`packages/sdk/src/${layer}/**/*.ts`],
        ignores: ["**/*.test.ts"],
        rules: {
          "no-restricted-imports": [
            "error",
            {
              patterns: [
                ...forbidden.map((f) => ({
                  group: [`../${f}`, `../${f}/*`, `../../${f}`, `../../${f}/*`],
                  message: `Layer '${layer}' must not import '${f}': dependencies point http -> api -> store/sync -> models -> send/crypto/voip/rtc/files -> client.`,
                })),
                {
                  group: ["@lattice/web", "@lattice/web/*", "react", "react-dom"],
                  message: "The SDK has no UI.",
                },
                {
                  group: ["@lattice/testserver", "@lattice/testserver/*"],
                  message: "Only tests may use the test homeserver.",
                },
              ],
            },
          ],
        },
      });
    }
  });
  return configs;
}

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
  ...layerRules(),
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
);
