/**
 * Picks the completion renderer of a shell.
 * @module
 */

import type { CompletionModel, Shell } from "./completion_model.ts";
import { renderBash } from "./render_bash.ts";
import { renderFish } from "./render_fish.ts";
import { renderZsh } from "./render_zsh.ts";

/**
 * Renders the completion script of `shell` for `model`.
 * @param shell `bash`, `zsh` or `fish`.
 * @param model The commands and flags.
 * @returns The script.
 * @example
 * ```ts
 * renderCompletion("fish", model); // "# fish completion for chant-wave, …"
 * ```
 */
export function renderCompletion(shell: Shell, model: CompletionModel): string {
  switch (shell) {
    case "bash":
      return renderBash(model);
    case "zsh":
      return renderZsh(model);
    case "fish":
      return renderFish(model);
  }
}
