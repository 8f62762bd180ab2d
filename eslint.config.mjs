// ESLint for the browser UI's scripts: ES modules (texts.js, common.js, coach.js, table.js,
// app.js) that the browser loads as they are. Each imports what it uses, so a name used but
// neither defined nor imported is an error here as well as in TypeScript's checker
// (tsconfig.json).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/cardplay/server/static/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { vars: "all", args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
