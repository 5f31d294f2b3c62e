import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run lint:exports`: fails when a module exports a value or a type that no other module
 * imports (used only in its own file, or nowhere). The finding is knip's (`knip.json` lists each
 * workspace's entry files, whose exports are the package's API and are not reported, except in
 * libs/: a lib's value that no other package imports is dead too). The types a lib exports are its
 * API even when no one names them (the parameters and results of its functions): not reported.
 *
 * Findings listed in `scripts/dead-exports-baseline.json` are allowed for now: its groups hold the
 * services' dead exports of issue 33, to be removed when the services' work is folded, and those
 * of libs that other work in progress is changing ({@link BASELINE_GROUPS}); once they are
 * removed the groups are emptied (`[]`), so that the check covers everything. A baseline entry
 * that knip no longer reports is printed as stale (not an error) so the list can be trimmed.
 *
 * Options: `--update-baseline` rewrites the baseline with today's findings under `services/`
 * (findings elsewhere are never baselined: fix them); `--list` prints every finding, baselined
 * or not, one `<file>:<name>` a line, and exits 0.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const baselineFile = join(root, 'scripts/dead-exports-baseline.json');

/** One dead export: `<file>:<name>`, the file relative to the repository root. */
type Finding = string;

interface KnipIssue {
  file: string;
  exports?: { name: string }[];
  types?: { name: string }[];
}

/** Runs knip for exports and types and returns every finding, sorted. Throws if knip fails to run. */
function findDeadExports(): Finding[] {
  const knip = spawnSync(
    join(root, 'node_modules/.bin/knip'),
    ['--include', 'exports,types', '--reporter', 'json', '--no-progress', '--no-config-hints'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  // knip exits 1 when it finds something, 2 on a failure of its own.
  if (knip.status !== 0 && knip.status !== 1) {
    throw new Error(`knip failed (exit ${knip.status}): ${knip.stderr}`);
  }
  const report = JSON.parse(knip.stdout) as { issues: KnipIssue[] };
  const findings = report.issues.flatMap((issue) =>
    [...(issue.exports ?? []), ...(issue.file.startsWith('libs/') ? [] : (issue.types ?? []))].map(
      (symbol) => `${issue.file}:${symbol.name}`,
    ),
  );
  return [...new Set(findings)].sort();
}

const findings = findDeadExports();

if (process.argv.includes('--list')) {
  for (const finding of findings) console.log(finding);
  process.exit(0);
}

/**
 * The groups of the baseline, each with the paths whose findings `--update-baseline` puts in it:
 * work that other hands are changing while this check lands. Nothing else may be baselined.
 */
const BASELINE_GROUPS: Record<string, string[]> = {
  'services: issue 33, removed when the services are folded in, then this list is emptied': ['services/'],
  'work in progress of others (issue 33 changes, issue 34 form-logic and the form builder; libs/problem conflict() unused since the catalogues)':
    [
      'libs/form-logic/',
      'console/src/pages/form-builder/',
      'console/src/components/form-logic/',
      'libs/messaging/src/changes.ts',
      'libs/webhooks/src/triggers.ts',
      'libs/problem/src/problem.ts',
    ],
};

if (process.argv.includes('--update-baseline')) {
  const groups = Object.fromEntries(
    Object.entries(BASELINE_GROUPS).map(([name, paths]) => [
      name,
      findings.filter((finding) => paths.some((path) => finding.startsWith(path))),
    ]),
  );
  writeFileSync(baselineFile, `${JSON.stringify(groups, null, 2)}\n`);
  console.log(
    `wrote ${Object.values(groups).flat().length} finding(s) to scripts/dead-exports-baseline.json`,
  );
}

/** The baseline: `{ "<group>": ["<file>:<name>", ...] }`. */
const baseline = new Set(
  Object.values(JSON.parse(readFileSync(baselineFile, 'utf8')) as Record<string, Finding[]>).flat(),
);
const errors = findings.filter((finding) => !baseline.has(finding));
const stale = [...baseline].filter((entry) => !findings.includes(entry));

for (const entry of stale) console.log(`stale baseline entry (no longer dead, remove it): ${entry}`);
if (errors.length > 0) {
  console.error('Exported but imported by no other module (remove `export`, or the code if unused):');
  for (const error of errors) console.error(`  ${error}`);
  process.exit(1);
}
console.log(`no dead exports (${baseline.size} allowed by scripts/dead-exports-baseline.json)`);
