// The architecture check (`npm run depcheck`): the floors of the house as ONE ordered list, top to
// bottom, from which every direction rule is generated. A module may import its own folder and any
// floor below its own; never a floor above (an upward arrow) and never a sibling on its own floor.
// Beside the list: adapters never import each other, adapters are reached only from the top, the
// critic is entered through its index, and no circles. docs/DESIGN.md "Layers" draws the same list.
// Type-only imports count: they are dependencies of the design even though tsc erases them.
// Paths are relative to the folder depcruise runs in (the repository root).

/** Top to bottom. Folders in one inner list share a floor and do not import each other. */
const FLOORS = [
  ['bin'], //               the installed `zetta` launcher
  ['cli'], //               the command: parses flags, calls everything below
  ['experiments'], //       the main job (`zetta run`) and its stages
  ['bench'], //             `zetta bench …`: timed workloads
  ['console'], //           the web console: server and web app
  ['skills'], //            loop 3: verified skills, promotion, transfer
  ['evolution'], //         loop 2: campaigns, diagnosis, synthesis, gates
  ['measure'], //           statistics: arms, bootstrap, Wilson, McNemar, tables
  ['models'], //            the embedded base policy: demonstrations, training, ONNX export
  ['zinfra/ros2', 'zinfra/queue'], // Z-Infra deployments: the ROS 2 node, the Redis job queue
  ['zinfra/runtime'], //    Z-Infra: control loop, action pipeline, rollout pool
  ['zinfra/recording'], //  Z-Infra: episode recordings (MCAP)
  ['zinfra/policy'], //     Z-Infra: the Policy port and its transports, one folder per adapter
  ['critic', 'sim'], //     the critic; the worlds (World/Env port at sim/'s top, one folder per adapter)
  ['protocol', 'util'], //  ground floor: wire, feature schema, ndarray; small shared utilities
];

/** Folders shared by every world adapter under sim/ (math, perturbation format): not adapters. */
const SIM_SHARED = '^sim/(math|perturbation)/';
/** Who may reach into an adapter folder: the top of the stack, which wires a run together. */
const ADAPTER_USERS = '^(bin|cli|experiments|bench|models)/';
/** npm packages resolve here (they are not followed, only recorded). */
const NPM = '^node_modules/';

const folderPath = (folder) => `^${folder}/`;
const anyOf = (folders) => `^(${folders.join('|')})/`;
const allFolders = FLOORS.flat();

/** For each floor: nothing on it imports a floor above it. */
const noUpward = FLOORS.slice(1).flatMap((floor, index) => {
  const above = FLOORS.slice(0, index + 1).flat();
  return floor.map((folder) => ({
    name: `no-upward-from-${folder.replace('/', '-')}`,
    comment: `${folder}/ imports only its own folder and the floors below it; ${above.join(', ')} sit above it.`,
    severity: 'error',
    from: { path: folderPath(folder) },
    to: { path: anyOf(above) },
  }));
});

/** For each shared floor: its folders do not import each other. */
const noSibling = FLOORS.filter((floor) => floor.length > 1).flatMap((floor) =>
  floor.map((folder) => ({
    name: `no-sibling-from-${folder.replace('/', '-')}`,
    comment: `${folder}/ shares its floor with ${floor.filter((f) => f !== folder).join(', ')}: folders on one floor do not import each other.`,
    severity: 'error',
    from: { path: folderPath(folder) },
    to: { path: anyOf(floor.filter((f) => f !== folder)) },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...noUpward,
    ...noSibling,
    {
      name: 'every-module-on-a-floor',
      comment:
        'Every checked module lives in a folder of the ordered list: a new top-level folder takes its place in FLOORS before anything imports it or it imports anything.',
      severity: 'error',
      from: { pathNot: anyOf(allFolders) },
      to: {},
    },
    {
      name: 'every-import-lands-on-a-floor',
      comment: 'Every import resolves into a folder of the ordered list, an npm package or a Node builtin.',
      severity: 'error',
      from: {},
      to: { pathNot: [anyOf(allFolders), NPM], dependencyTypesNot: ['core'], couldNotResolve: false },
    },
    {
      name: 'world-adapters-do-not-import-each-other',
      comment:
        'A world adapter sim/<world>/ imports no other adapter: worlds share only the port at the top of sim/ and sim/math/, sim/perturbation/.',
      severity: 'error',
      from: { path: '^sim/([^/]+)/' },
      to: { path: '^sim/[^/]+/', pathNot: ['^sim/$1/', SIM_SHARED] },
    },
    {
      name: 'policy-adapters-do-not-import-each-other',
      comment:
        'A policy adapter zinfra/policy/<adapter>/ imports no other adapter: adapters share only the port at the top of zinfra/policy/.',
      severity: 'error',
      from: { path: '^zinfra/policy/([^/]+)/' },
      to: { path: '^zinfra/policy/[^/]+/', pathNot: '^zinfra/policy/$1/' },
    },
    {
      name: 'world-adapters-reached-from-the-top',
      comment:
        'Only the top of the stack (bin, cli, experiments, bench, models) and the world registry (sim/worlds.ts) import a world adapter; the runtime, the loops and the ROS 2 node see worlds through the port.',
      severity: 'error',
      from: { pathNot: [ADAPTER_USERS, '^sim/'] },
      to: { path: '^sim/[^/]+/', pathNot: SIM_SHARED },
    },
    {
      name: 'world-adapters-reached-through-the-registry',
      comment: 'Inside sim/, only an adapter itself and the registry (sim/worlds.ts) import an adapter folder.',
      severity: 'error',
      from: { path: '^sim/[^/]+\\.ts$', pathNot: '^sim/worlds\\.ts$' },
      to: { path: '^sim/[^/]+/', pathNot: SIM_SHARED },
    },
    {
      name: 'policy-adapters-reached-from-the-top',
      comment:
        'Only the top of the stack and zinfra/policy/open-policy.ts import a policy adapter; everything else holds a Policy from the port.',
      severity: 'error',
      from: { pathNot: [ADAPTER_USERS, '^zinfra/policy/([^/]+/|open-policy\\.ts$)'] },
      to: { path: '^zinfra/policy/[^/]+/' },
    },
    {
      name: 'critic-entered-through-its-index',
      comment:
        'Outside critic/, the critic is imported only through critic/index.ts, its public API, or critic/rules/describe.ts, ' +
        'the rule describer the browser bundle imports (the index reaches node:fs, so the web cannot take it).',
      severity: 'error',
      from: { pathNot: '^critic/' },
      to: { path: '^critic/', pathNot: ['^critic/index\\.ts$', '^critic/rules/describe\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment:
        'No circular dependencies anywhere: every module depends only downward, so no chain of imports comes back to where it started.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import resolves to a file or a package; an import the check cannot resolve is one it cannot judge, so it fails too.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // The checked set: the floors, never the tests, build output, run artifacts or tool configs at the root.
    exclude: { path: ['^(tests|dist|runs)/', '^[^/]+\\.(ts|cjs|mjs|js)$'] },
    doNotFollow: { path: NPM },
    // Keep type-only imports (`import type`, type re-exports) in the graph: they are dependencies too.
    tsPreCompilationDeps: true,
    // NodeNext: `./x.js` specifiers resolve to the `./x.ts` sources.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
// The list itself, for the architecture test and docs (not part of dependency-cruiser's schema).
Object.defineProperty(module.exports, 'FLOORS', { value: FLOORS, enumerable: false });
