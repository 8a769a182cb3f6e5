/**
 * What differs between GitHub Actions and Forgejo Actions when rendering the same
 * workflow: the file's place, the default runner, the artifact actions, runner
 * groups and deployment environments. Data only.
 * @module
 */

/** One Actions-style forge. */
export interface ActionsFlavour {
  forge: "github" | "forgejo";
  /** The workflow file for the rollout `name`. */
  path(name: string): string;
  /** `runs-on` when the spec names no runner. */
  defaultRunner: string;
  checkout: string;
  upload: string;
  download: string;
  /** Whether `runs-on: { group, labels }` exists. */
  runnerGroups: boolean;
  /** Whether jobs keep `environment` (Forgejo drops it). */
  environments: boolean;
}

/** GitHub Actions. */
export const GITHUB: ActionsFlavour = {
  forge: "github",
  path: (name) => `.github/workflows/${name}.yml`,
  defaultRunner: "ubuntu-latest",
  checkout: "actions/checkout@v4",
  upload: "actions/upload-artifact@v4",
  download: "actions/download-artifact@v4",
  runnerGroups: true,
  environments: true,
};

/**
 * Forgejo Actions: `actions/upload-artifact@v4` refuses any server but GitHub's,
 * so the artifacts go through Forgejo's own forks of the two actions, named
 * short so they resolve, like `actions/checkout`, against the instance's default
 * actions URL (data.forgejo.org or code.forgejo.org, which serve both).
 */
export const FORGEJO: ActionsFlavour = {
  forge: "forgejo",
  path: (name) => `.forgejo/workflows/${name}.yml`,
  defaultRunner: "docker",
  checkout: "actions/checkout@v4",
  upload: "forgejo/upload-artifact@v4",
  download: "forgejo/download-artifact@v4",
  runnerGroups: false,
  environments: false,
};
