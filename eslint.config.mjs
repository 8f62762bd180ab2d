// ESLint for the browser UI's scripts. They are four classic scripts loaded in order and sharing
// one global scope (texts.js, app.js, table.js, coach.js), so names defined in one and used in
// another are not "undefined": TypeScript's checker (tsconfig.json) checks every name across
// the four, and ESLint checks the rest.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/cardplay/server/static/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
    rules: {
      "no-undef": "off",
      "no-unused-vars": ["error", { vars: "local", args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
